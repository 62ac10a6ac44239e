"""Precision targets: the confidence sequence (dragonsim.stats.precision_plan: Clopper-Pearson
at each look of a plan fixed before any game, its errors summing to at most 5%) covers an exact
answer at its nominal rate, per rate and all rates at once; the shaped plan stops no later than
the even one (Bonferroni over the whole grid) on the same games; runs stop with the promised
half-width, and the same seed and precision give the same n and counts."""

import json
import math

import numpy as np
import pytest
from scipy import stats as st

from dragonsim.cli import main
from dragonsim.dice import attack
from dragonsim.dice import kernel as K
from dragonsim.dice.odds import exact_attack
from dragonsim.errors import UserError
from dragonsim.lords.api import duel
from dragonsim.stats import (
    LOOK_RATIO,
    clopper_pearson,
    half_width,
    precision_plan,
    precision_schedule,
    sequence_interval,
    worst_half_width,
)

SMALL = {"goblin-thug": 2, "goblin-pelter": 2, "goblin-slingman": 1}


def test_schedule_is_fixed_geometric_and_ends_at_the_cap():
    """The union bound needs the looks fixed before any game: the schedule is a function of
    precision and cap only, grows by LOOK_RATIO and ends at the cap."""
    s = precision_schedule(0.01, cap=10**6)
    assert s == precision_schedule(0.01, cap=10**6)
    assert s[-1] == 10**6 and all(b > a for a, b in zip(s, s[1:], strict=False))
    ratios = np.array(s[1:-1]) / np.array(s[:-2])
    assert np.allclose(ratios, LOOK_RATIO, rtol=0.01)
    # the first look: 1/8 of the fixed-n 95% requirement at p = 1/2, 1.96**2 / (4 h**2)
    assert s[0] == int(np.ceil(1.959964**2 / (4 * 0.01**2) / 8))
    assert precision_schedule(0.01, cap=100) == [100]


def test_sequence_interval_is_clopper_pearson_at_the_bonferroni_level():
    """At each of K looks the interval is Clopper-Pearson at level 1 - alpha / K."""
    for k, n, looks in ((30, 100, 1), (500, 1000, 20), (0, 50, 7)):
        assert sequence_interval(k, n, looks) == clopper_pearson(k, n, 1 - 0.05 / looks)
    assert half_width(*sequence_interval(500, 1000, 20)) > half_width(
        *sequence_interval(500, 1000, 1)
    )


#: (target, cap, rates covered at once, Clopper-Pearson intervals per quantity)
PLANS = [(0.005, 10**8, 1, 1), (0.01, 10**8, 3, 1), (0.03, 10**6, 1, 2), (0.08, 10**8, 6, 2)]


def _half_widths(n, confidence):
    """Every count's Clopper-Pearson half-width among ``n`` trials, vectorised (the slow,
    obvious reference for :func:`worst_half_width`)."""
    a, k = 1 - confidence, np.arange(n + 1)
    lo = np.where(k == 0, 0.0, st.beta.ppf(a / 2, np.maximum(k, 1), n - k + 1))
    hi = np.where(k == n, 1.0, st.beta.ppf(1 - a / 2, k + 1, np.maximum(n - k, 1)))
    return (hi - lo) / 2


def test_spending_plan_spends_at_most_alpha_over_its_looks_and_rates():
    """The union bound needs every look's error, times the rates covered at once, to sum to
    at most 1 - confidence. The plan depends on its arguments only (fixed before any game);
    its looks increase and end by the cap; its early looks are the even plan's at the even
    plan's error, and its last look gets at least the even plan's share."""
    for h, cap, rates, parts in PLANS:
        plan = precision_plan(h, cap, rates=rates, parts=parts)
        even = precision_plan(h, cap, rates=rates, parts=parts, spending="even")
        assert plan == precision_plan(h, cap, rates=rates, parts=parts)
        for p in (plan, even):
            assert math.fsum(p.errors) * rates <= 1 - 0.95 and p.spent <= 1 - 0.95
            assert min(p.errors) > 0 and p.looks[-1] <= cap
            assert all(b > a for a, b in zip(p.looks, p.looks[1:], strict=False))
        k = len(plan.looks) - 1
        assert plan.looks[:k] == even.looks[:k] and plan.errors[:k] == even.errors[:k]
        assert plan.errors[-1] > even.errors[-1] and plan.guaranteed
    assert list(even.looks) == precision_schedule(0.08, 10**8)
    # a cap before the look that is sure to meet the target: the even plan, and no promise
    capped = precision_plan(0.005, 30_000)
    assert capped.looks == precision_plan(0.005, 30_000, spending="even").looks
    assert len(set(capped.errors)) == 1 and not capped.guaranteed


def test_last_look_meets_the_target_whatever_the_games():
    """At the shaped plan's last look every count's interval is within the target, so the
    run stops there at the latest: the widest is the middle count's (worst_half_width),
    checked against every count at that n and a few others."""
    for h, cap, rates, parts in PLANS:
        plan = precision_plan(h, cap, rates=rates, parts=parts)
        n, level = plan.looks[-1], 1 - plan.errors[-1] / parts
        widths = _half_widths(n, level)
        assert widths.max() <= h
        assert widths.max() == pytest.approx(worst_half_width(n, level), rel=1e-9)
    for n, level in ((1, 0.95), (10, 0.95), (11, 0.9), (101, 0.999), (2000, 0.99)):
        assert _half_widths(n, level).max() == pytest.approx(worst_half_width(n, level))


def _stops(plan, counts):
    """The game count each path of ``counts`` (paths x looks x rates, the successes at each
    of ``plan``'s looks) stops at: the first look where every rate is within the target."""
    n = np.asarray(plan.looks)[None, :, None]
    a = (1 - np.asarray(plan.errors))[None, :, None]
    lo = np.where(counts == 0, 0.0, st.beta.ppf((1 - a) / 2, np.maximum(counts, 1), n - counts + 1))
    hi = np.where(counts == n, 1.0, st.beta.ppf((1 + a) / 2, counts + 1, np.maximum(n - counts, 1)))
    met = ((hi - lo) / 2 <= plan.target).all(axis=2)
    first = np.where(met.any(axis=1), met.argmax(axis=1), len(plan.looks) - 1)
    return first, lo, hi


def _paths(rng, looks, probs, runs):
    """Successes of each outcome at each of ``looks`` (paths x looks x outcomes): the games
    of one multinomial stream per path, counted at every look."""
    steps = np.diff(np.concatenate([[0], looks]))
    draws = np.stack([rng.multinomial(s, probs, size=runs) for s in steps], axis=1)
    return np.cumsum(draws, axis=1)


def _through_sure_look(plan):
    """``plan`` cut after its first look that is sure to meet the target (no run looks later)."""
    from dataclasses import replace

    k = next(
        i
        for i, (n, e) in enumerate(zip(plan.looks, plan.errors, strict=True))
        if worst_half_width(n, 1 - e) <= plan.target
    )
    return replace(plan, looks=plan.looks[: k + 1], errors=plan.errors[: k + 1])


def test_shaped_plan_stops_no_later_than_the_even_plan_on_the_same_games():
    """On the same games, path by path, the shaped plan stops at or before the even plan's
    stop, whatever the rate (its early looks are the even plan's; its last look is sure to
    meet the target), and a balanced rate, where the target is met early, stops at least
    15% sooner."""
    rng = np.random.default_rng(11)
    shaped = precision_plan(0.02)
    even = _through_sure_look(precision_plan(0.02, spending="even"))
    grid = np.array(sorted(set(shaped.looks) | set(even.looks)))
    for p in (0.5, 0.3, 0.1, 0.02):
        counts = _paths(rng, grid, [p, 1 - p], 100)[:, :, :1]
        stop = {}
        for name, plan in (("shaped", shaped), ("even", even)):
            first = _stops(plan, counts[:, np.searchsorted(grid, plan.looks)])[0]
            stop[name] = np.asarray(plan.looks)[first]
        assert (stop["shaped"] <= stop["even"]).all(), p
        if p == 0.5:
            assert (stop["shaped"] <= 0.85 * stop["even"]).all()


def test_shaped_plan_covers_each_rate_and_all_rates_at_once():
    """Coverage over many simulated runs of a three-outcome game (like a duel: A wins, B
    wins, draws) against the known rates, stopped as a run stops (every rate within the
    target): each rate's interval misses at most 5% of the time with the default plan, and
    with ``rates=3`` some rate misses at most 5% of the time; the misses are held to a
    Binomial(runs, 0.05) count's upper 1e-6 quantile."""
    rng = np.random.default_rng(5)
    probs, runs, h = np.array([0.46, 0.44, 0.10]), 2000, 0.03
    bound = st.binom.ppf(1 - 1e-6, runs, 0.05)
    for rates in (1, 3):
        plan = precision_plan(h, rates=rates)
        counts = _paths(rng, np.asarray(plan.looks), probs, runs)
        first, lo, hi = _stops(plan, counts)
        at = np.arange(runs)
        miss = (lo[at, first] > probs) | (hi[at, first] < probs)  # runs x rates
        assert (hi[at, first] - lo[at, first]).max() / 2 <= h
        if rates == 1:
            assert (miss.sum(axis=0) <= bound).all(), miss.sum(axis=0)
        else:
            assert miss.any(axis=1).sum() <= bound, miss.any(axis=1).sum()


def test_confidence_sequence_covers_an_exact_dice_attack():
    """Coverage over many seeds: a Dragon Dice attack whose answer is exact
    (dragonsim.dice.odds.exact_attack). For each reported rate with a known truth the share of
    precision runs whose final interval misses it is at most 5%: the misses are at most a
    Binomial(runs, 0.05) count's upper 1e-6 quantile. Every run stops with every reported
    half-width within the target."""
    ex = exact_attack("red-wyrm", SMALL)
    truth = {
        K.C_ANY_SLAIN: float(ex.p_dragon_slain),
        K.C_DESTROYED: float(ex.p_army_destroyed),
        K.C_PROMO_ANY: float(ex.p_any_promotion),
    }
    runs, target = 200, 0.03
    misses = dict.fromkeys(truth, 0)
    for seed in range(runs):
        # one thread: a run is ~10 short looks, and waking a pool for each costs more
        r = attack("red-wyrm", SMALL, precision=target, seed=1000 + seed, progress=False, threads=1)
        assert r.precision.met and r.n in r.precision.looks
        for rate in (r.p_dragon_slain, r.p_army_destroyed, r.p_promotion, r.p_timeout):
            assert half_width(rate.lo, rate.hi) <= target
        for c, p in truth.items():
            rate = r._rate(c)
            misses[c] += not (rate.lo <= p <= rate.hi)
    bound = st.binom.ppf(1 - 1e-6, runs, 0.05)
    assert all(m <= bound for m in misses.values()), (misses, bound)


def test_precision_duel_is_reproducible_and_the_same_games_as_a_plain_duel():
    """Looks are game-index ranges on per-game streams: the same seed and precision give the
    same n and counters, equal to a plain duel of that n; the half-width at the stop is within
    the target and the interval reported is the confidence sequence's."""
    r1 = duel("Reaper", "Skyblazer", precision=0.04, seed=3, progress=False)
    r2 = duel("Reaper", "Skyblazer", precision=0.04, seed=3, progress=False)
    assert r1.n == r2.n and np.array_equal(r1.counters, r2.counters)
    assert r1.precision.met and r1.n in r1.precision.looks
    plain = duel("Reaper", "Skyblazer", n=r1.n, seed=3, progress=False)
    assert np.array_equal(plain.counters, r1.counters)
    assert plain.first_mover == plain.first_mover and r1.first_mover.first_wins.k == (
        plain.first_mover.first_wins.k
    )
    for rate in (r1.rate_a, r1.rate_b, r1.rate_draw):
        assert rate.method == "confidence-sequence"
        assert (rate.lo, rate.hi) == r1.precision.plan.interval(rate.k, r1.n)
        assert half_width(rate.lo, rate.hi) <= 0.04
    d = r1.to_dict()
    assert d["precision"]["met"] and d["interval"] == "confidence-sequence"


def test_precision_cap_is_reported(capsys):
    r = duel("Reaper", "Skyblazer", precision=0.01, max_n=500, seed=1, progress=False)
    assert r.n == 500 and not r.precision.met
    assert "NOT reached" in r.summary()
    assert "not reached in 500 games" in capsys.readouterr().err


def test_a_precision_the_cap_cannot_reach_is_refused_before_any_game(capsys, monkeypatch):
    """On the command line a target a rate near 50% cannot reach within --max-n exits 2 with
    one line naming the games it needs, before any game (the Python API still plays to the
    cap and reports it, above); a reachable one is not refused."""
    import dragonsim.lords.api as api

    def no_games(*a, **k):
        raise AssertionError("a game was played")

    monkeypatch.setattr(api, "duel", no_games)
    argv = ["duel", "Reaper", "Skyblazer", "--precision", "0.001", "--max-n", "1e5"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "1,133,142 games" in err and "--max-n 100,000" in err
    assert main(["dice", "attack", "--dragon", "red-wyrm", "--army", "goblin-thug:2",
                 "--precision", "0.00001"]) == 2  # fmt: skip
    assert "loosen --precision" in capsys.readouterr().err


def test_n_and_precision_exclude_each_other(capsys):
    with pytest.raises(UserError, match="not both"):
        duel("Reaper", "Skyblazer", n=100, precision=0.01)
    with pytest.raises(UserError, match="precision"):
        duel("Reaper", "Skyblazer", precision=0.7)
    with pytest.raises(UserError, match="checkpoints"):
        duel("Reaper", "Skyblazer", precision=0.05, checkpoint="/tmp/precision/x.ckpt")
    assert main(["duel", "Reaper", "Skyblazer", "-n", "100", "--precision", "0.01"]) == 2
    assert "not both" in capsys.readouterr().err
    assert main(["dice", "attack", "--dragon", "red-wyrm", "--army", "goblin-thug:2",
                 "-n", "100", "--precision", "0.01"]) == 2  # fmt: skip


def test_simultaneous_covers_every_rate_at_once_at_more_games(capsys):
    """``simultaneous`` splits the error over the three rates the duel's stop waits for: the
    plan covers them at once, each interval is the plan's and within the target, and the run
    needs at least the games of the default (each rate on its own). Without a target it is a
    one-line error (exit 2 on the command line)."""
    each = duel("Reaper", "Skyblazer", precision=0.04, seed=3, progress=False)
    once = duel("Reaper", "Skyblazer", precision=0.04, seed=3, progress=False, simultaneous=True)
    assert each.precision.plan.rates == 1 and once.precision.plan.rates == 3
    assert once.precision.met and once.n >= each.n and once.precision.plan.spent <= 1 - 0.95
    for rate in (once.rate_a, once.rate_b, once.rate_draw):
        assert (rate.lo, rate.hi) == once.precision.plan.interval(rate.k, once.n)
        assert half_width(rate.lo, rate.hi) <= 0.04
    assert once.to_dict()["precision"]["simultaneous"]
    assert "all 3 at once" in once.summary()
    with pytest.raises(UserError, match="simultaneous"):
        duel("Reaper", "Skyblazer", n=100, simultaneous=True)
    argv = ["duel", "Reaper", "Skyblazer", "--simultaneous"]
    assert main([*argv, "-n", "100"]) == 2
    assert "--simultaneous" in capsys.readouterr().err
    assert main([*argv, "--precision", "0.04", "--seed", "3", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["n"] == once.n and d["precision"]["rates_covered_at_once"] == 3


def _lords_battle(**kw):
    from dragonsim.lords.api import battle

    r = battle(["Reaper", "Skyblazer", "Tankerous"], seed=2, progress=False, **kw)
    return r, [*r.rates, r.rate_draw]


def _dice_duel(**kw):
    from dragonsim.dice import duel as dice_duel

    r = dice_duel("red-wyrm", "blue-drake", seed=2, progress=False, threads=1, **kw)
    return r, [r.p_a_wins, r.p_b_wins, r.p_a_slain, r.p_b_slain, r.p_all_gone, r.p_timeout]


def _krynn_battle(**kw):
    from dragonsim.krynn.api import battle as krynn_battle

    r = krynn_battle(alliance="foot=3,missile=2", army="foot=4", seed=2, progress=False, **kw)
    return r, [r.p_alliance_controls, r.p_army_controls, r.p_undecided]


@pytest.mark.parametrize("play", [_lords_battle, _dice_duel, _krynn_battle])
def test_every_precision_command_stops_within_the_target_on_the_plain_runs_games(play):
    """Lords battle, Dice duel, Krynn battle: each reported rate is within the target at the
    stop, and the counters are those of a plain run of that n (the same games)."""
    r, rates = play(precision=0.03)
    assert r.precision.met and r.n in r.precision.looks
    for rate in rates:
        assert rate.method == "confidence-sequence" and half_width(rate.lo, rate.hi) <= 0.03
    plain, _ = play(n=r.n)
    assert np.array_equal(plain.counters, r.counters)
    assert r.to_dict()["precision"]["met"]
