"""The ground's exact odds (Dragon Lords advanced rules, pp. 17 and 22) and the engine checked
against them.

"A crashing dragon must roll on the Rear column of the Damage Allocation Table. The body part
rolled will take 1d6 points of crash damage for each altitude the dragon fell" and "If the
dragon has a rider, roll 1d6. If the result is a 1, 2 or 3, the rider has been killed in the
fall" (p.22); "roll 1d6+3. The dragon can move up to this number of hexes along the ground";
taking off "costs a number of movement points equal to its minimum speed plus 1" (p.17).

The Monte Carlo checks play duels under ``advanced`` with the four ground switches on
(``lords.advanced.crash_very_low``, ``crash_slow``, ``crash_zeroed``, ``landing``) and compare
the engine's counters with :mod:`dragonsim.lords.game.odds` at a two-sided level of 1e-6 per check,
tolerances from the counts and the exact variances.
"""

from __future__ import annotations

import json
from fractions import Fraction
from statistics import NormalDist

import numpy as np
import pytest
from scipy import stats as st

from dragonsim.cli import main
from dragonsim.errors import UserError
from dragonsim.lords import api
from dragonsim.lords.game import odds
from dragonsim.lords.game import state as S
from dragonsim.lords.game.sheets import sheet
from dragonsim.lords.game.tables import SIDE_REAR
from dragonsim.rules import lords_rules
from dragonsim.rules.lords import ALTITUDES, PART_CODES, PARTS
from dragonsim.stats import binomial_consistent

ALPHA = 1e-6
GROUND = {
    **api._rules("advanced").overrides,
    "lords.advanced.crash_zeroed": True,
    "lords.advanced.crash_very_low": True,
    "lords.advanced.crash_slow": True,
    "lords.advanced.landing": True,
}


# ---- exact values against hand computation --------------------------------------------------
def test_crash_damage_is_one_d6_a_level_fallen():
    """1d6 a level (p.22): one level, mean 7/2 and variance 35/12; four levels 4d6, mean 14
    and variance 4 x 35/12; five levels reach 5..30, P(30) = 6**-5."""
    one = odds.crash(1)
    assert (one["dice"], one["mean"], one["variance"]) == (1, Fraction(7, 2), Fraction(35, 12))
    assert one["damage"] == {k: Fraction(1, 6) for k in range(1, 7)}
    four = odds.crash(4)
    assert (four["mean"], four["variance"]) == (14, Fraction(35, 3))
    five = odds.crash(5)
    assert (min(five["damage"]), max(five["damage"])) == (5, 30)
    assert five["damage"][30] == Fraction(1, 6**5) and sum(five["damage"].values()) == 1
    assert five["altitude"] == "Very High" and one["altitude"] == "Very Low"


def test_a_rider_dies_in_the_fall_one_time_in_two():
    """ "If the result is a 1, 2 or 3, the rider has been killed" (p.22): 3 faces of 6."""
    assert all(odds.crash(k)["p_rider_killed"] == Fraction(1, 2) for k in range(1, 6))


def test_the_crash_hits_the_rear_column():
    """The part from 2d6 on the Rear column of the Damage Allocation Table (p.22, p.11): read
    from ``lords.damage_allocation`` here and counted over the 36 faces; by hand that column
    gives the tail on 2-4 and 10-12 (12 faces) and the body on 5-9 (24 faces)."""
    table = lords_rules().get("lords.damage_allocation")
    faces = [a + b for a in range(1, 7) for b in range(1, 7)]
    want = {p: Fraction(0) for p in PARTS}
    for s in faces:
        want[PARTS[PART_CODES.index(table[s][SIDE_REAR])]] += Fraction(1, 36)
    c = odds.crash(3)
    assert c["location"] == want
    assert want["body"] == Fraction(2, 3) and want["tail"] == Fraction(1, 3)
    assert c["expected_points"]["body"] == Fraction(2, 3) * Fraction(21, 2)
    assert sum(c["expected_points"].values()) == c["mean"]


def test_crash_levels_outside_the_five_altitudes_are_one_line():
    """Only Very Low (1) .. Very High (5) are above the ground."""
    for bad in (0, 6, -1, 2.5, True, "3"):
        with pytest.raises(UserError, match=r"must be one of 1 \(Very Low\).*5 \(Very High\)"):
            odds.crash(bad)


def test_the_rules_values_drive_the_crash():
    """``lords.ground``'s ``crash_dice_per_level`` and ``rider_fall_kills`` are the numbers
    used: 2 dice a level gives 4d6 for two levels (mean 14), killing on 1-4 gives 2/3."""
    r = lords_rules({"ground.crash_dice_per_level": 2, "ground.rider_fall_kills": 4})
    c = odds.crash(2, r)
    assert (c["dice"], c["mean"], c["p_rider_killed"]) == (4, 14, Fraction(2, 3))


def test_ground_move_is_1d6_plus_3():
    """ "roll 1d6+3" (p.17): 4..9 hexes, each 1/6, mean 13/2."""
    g = odds.ground_move()
    assert g["distribution"] == {k: Fraction(1, 6) for k in range(4, 10)}
    assert (g["mean"], g["variance"]) == (Fraction(13, 2), Fraction(35, 12))


def test_take_off_leap_cost_and_speeds():
    """A speed "at least 1 point more than the dragon's minimum speed and no higher than 7";
    the leap of minimum-speed hexes "costs ... its minimum speed plus 1" (p.17). Zippinchill
    (minimum 1): leap 1, cost 2, speeds 2..7 leaving 0..5; Tankerous (minimum 5): leap 5,
    cost 6, speeds 6 and 7; an inline design reads its body's minimum (Heavy: 4)."""
    z = odds.take_off("Zippinchill")
    assert (z["leap_hexes"], z["cost"]) == (1, 2)
    assert z["speeds"] == {v: v - 2 for v in range(2, 8)}
    t = odds.take_off("tankerous")
    assert (t["leap_hexes"], t["cost"], t["speeds"]) == (5, 6, {6: 0, 7: 1})
    d = odds.take_off("body=Heavy,wings=Large,breath=Ice,claws=Sharp")
    assert (d["cost"], d["speeds"]) == (5, {5: 0, 6: 1, 7: 2})
    # a take-off ceiling below the cost leaves no speed at all
    low = lords_rules({"ground.takeoff_max_speed": 5})
    assert odds.take_off("Tankerous", low)["speeds"] == {}
    with pytest.raises(UserError, match="unknown dragon"):
        odds.take_off("Nobody")


# ---- Monte Carlo: the engine's counters against the exact odds -----------------------------
def _consistent_mean(total: float, n: int, mean: Fraction, var: Fraction) -> bool:
    """Is a sum of ``n`` draws consistent with an exact mean and variance (two-sided z test
    at ``ALPHA``; the central limit theorem, n >= 30 here)?"""
    z = (total - n * float(mean)) / (n * float(var)) ** 0.5
    return 2 * NormalDist().cdf(-abs(z)) >= ALPHA


@pytest.fixture(scope="module")
def ground():
    """Counters of 3,000 games each: brawler Ozonic v Tankerous and Tankerous v Tankerous
    (many crashes, from every altitude), random Ozonic v Tankerous (landings, take-offs and
    moves on the ground)."""
    runs = [
        ("brawler", "Ozonic", "Tankerous"),
        ("brawler", "Tankerous", "Tankerous"),
        ("random", "Ozonic", "Tankerous"),
    ]
    out = [
        api.duel(a, b, n=3000, seed=23, policy=pol, progress=False, rules=GROUND).counters
        for pol, a, b in runs
    ]
    return np.sum(out, axis=0)


def test_every_crash_falls_one_to_five_levels(ground):
    """A crash comes from the air (Very Low .. Very High): the crashes counted by cause are
    the crashes counted by levels fallen, and all three causes occur."""
    causes = ground[S.C_CRASHES : S.C_CRASHES + 3]
    assert (causes > 0).all()
    assert causes.sum() == ground[S.C_CRASH_N : S.C_CRASH_N + 5].sum()


def test_crash_damage_by_levels_fallen_matches_the_exact_mean(ground):
    """For every altitude with at least 30 crashes, the mean crash damage roll is the exact
    mean of ``levels`` d6 (p.22) within a z test from the exact variance, and its mean square
    the exact E[X^2] within one from the exact Var(X^2) (at least 100 crashes). Every level
    1..5 is tested."""
    tested = []
    for k in range(1, 6):
        n = int(ground[S.C_CRASH_N + k - 1])
        if n < 30:
            continue
        c = odds.crash(k)
        total = float(ground[S.C_CRASH_SUM + k - 1])
        assert _consistent_mean(total, n, c["mean"], c["variance"]), (k, n, total / n)
        if n >= 100:
            sq = {v * v: q for v, q in c["damage"].items()}
            sq_total = float(ground[S.C_CRASH_SQ + k - 1])
            assert _consistent_mean(sq_total, n, odds.expected(sq), odds.variance(sq)), k
        tested.append(k)
    assert tested == [1, 2, 3, 4, 5]


def test_riders_die_in_half_the_falls(ground):
    """Ozonic's Crossbow Shooter and Tankerous's Lancer, rolling 1d6 in each crash, die on
    1-3 (p.22): the engine's kill rate is 1/2 within the exact binomial test."""
    checks, killed = int(ground[S.C_FALL_CHECKS]), int(ground[S.C_FALL_KILLED])
    assert checks > 1000 and 0 < killed < checks
    assert checks <= ground[S.C_CRASHES : S.C_CRASHES + 3].sum()
    p = odds.crash(1)["p_rider_killed"]
    assert binomial_consistent(killed, checks, float(p), alpha=ALPHA)


def test_ground_moves_roll_1d6_plus_3(ground):
    """The hexes rolled for each move on the ground follow 1d6+3 (p.17): a chi-square test of
    the six counts against :func:`odds.ground_move`'s exact distribution."""
    counts = ground[S.C_GROUND_ROLLS : S.C_GROUND_ROLLS + 6].astype(float)
    dist = odds.ground_move()["distribution"]
    assert list(dist) == list(range(4, 10))  # the counter's slots: roll - 4
    assert counts.sum() > 10_000 and (counts > 0).all()
    expect = counts.sum() * np.array([float(q) for q in dist.values()])
    assert st.chisquare(counts, expect).pvalue >= ALPHA
    assert ground[S.C_LANDINGS] > 0 and ground[S.C_GROUND_TURNS] > 0


@pytest.mark.parametrize("dragon", ["Zippinchill", "Kelvinight", "Tankerous"])
def test_take_off_points_are_minimum_plus_one(dragon):
    """Each take-off costs the dragon's minimum speed plus 1 (p.17), exactly: a dragon against
    itself under the random bot (Zippinchill, minimum 1: 2 points; Kelvinight, minimum 2: 3;
    Tankerous, minimum 5: 6)."""
    c = api.duel(dragon, dragon, n=1000, seed=29, policy="random", progress=False, rules=GROUND)
    cost = odds.take_off(dragon)["cost"]
    assert cost == sheet(dragon).min_speed + 1
    n = int(c.counters[S.C_TAKEOFFS])
    assert n > 100
    assert c.counters[S.C_TAKEOFF_POINTS] == cost * n


def test_take_off_points_in_the_mixed_duels(ground):
    """Ozonic and Tankerous both have minimum speed 5 (Very Heavy bodies): in the fixture's
    duels, brawler and random alike, every take-off cost 6 points."""
    assert odds.take_off("Ozonic")["cost"] == odds.take_off("Tankerous")["cost"] == 6
    n = int(ground[S.C_TAKEOFFS])
    assert n > 1000
    assert ground[S.C_TAKEOFF_POINTS] == 6 * n


# ---- the command line -----------------------------------------------------------------------
def test_odds_crash_prints_every_level(capsys):
    """``odds crash``: one row a level fallen, mean 3.5 .. 17.5, the sd of levels d6, the
    rider's 1/2 and the Rear column's 2/3 body, 1/3 tail."""
    assert main(["odds", "crash"]) == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.strip().startswith(ALTITUDES[1:])]
    assert len(rows) == 5
    assert [r[-5] for r in rows] == ["3.5", "7.0", "10.5", "14.0", "17.5"]
    assert all(r[-3:] == ["1/2", "2/3", "1/3"] for r in rows)
    assert "P(body)" in out and "P(tail)" in out and "P(head)" not in out


def test_odds_crash_json_and_from(capsys):
    """``--from`` takes a number of levels or an altitude's name; ``--json`` the fractions."""
    assert main(["odds", "crash", "--from", "very-high", "--json"]) == 0
    (d,) = json.loads(capsys.readouterr().out)
    assert (d["levels"], d["dice"], d["mean"]["fraction"]) == (5, 5, "35/2")
    assert d["variance"]["fraction"] == "175/12"
    assert d["p_rider_killed"]["fraction"] == "1/2"
    assert d["location"]["body"]["fraction"] == "2/3"
    assert d["damage"]["30"]["fraction"] == f"1/{6**5}"
    assert main(["odds", "crash", "--from", "2", "--json"]) == 0
    (d,) = json.loads(capsys.readouterr().out)
    assert d["altitude"] == "Low" and d["mean"]["decimal"] == 7.0


def test_odds_takeoff_text_and_json(capsys):
    """``odds takeoff``: the leap and cost, then each speed and the points left after it."""
    assert main(["odds", "takeoff", "Kelvinight"]) == 0
    out = capsys.readouterr().out
    assert "leap of 2 hexes" in out and "costs 3 points" in out
    assert [line.split() for line in out.splitlines()[2:]] == [
        [str(v), str(v - 3)] for v in range(3, 8)
    ]
    assert main(["odds", "takeoff", "body=Heavy,wings=Large,breath=Ice,claws=Sharp", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert (d["leap_hexes"], d["cost"], d["speeds"]) == (4, 5, {"5": 0, "6": 1, "7": 2})


@pytest.mark.parametrize(
    "argv, says",
    [
        (["odds", "crash", "--from", "0"], "--from takes 1..5"),
        (["odds", "crash", "--from", "6"], "--from takes 1..5"),
        (["odds", "crash", "--from", "ground"], "unknown altitude 'ground'"),
        (["odds", "takeoff", "Nobody"], "unknown dragon 'Nobody'"),
    ],
)
def test_bad_ground_odds_input_is_one_line_exit_2(capsys, argv, says):
    """Bad input: one line on stderr naming what is allowed, exit 2."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1
