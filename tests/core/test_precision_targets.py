"""Precision targets: the confidence sequence (dragonsim.stats.precision_schedule /
sequence_interval, Bonferroni over a fixed schedule of looks) covers an exact answer at its
nominal rate, runs stop with the promised half-width, and the same seed and precision give the
same n and counts."""

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
    precision_schedule,
    sequence_interval,
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
    looks = len(r1.precision.looks)
    for rate in (r1.rate_a, r1.rate_b, r1.rate_draw):
        assert rate.method == "confidence-sequence"
        assert (rate.lo, rate.hi) == sequence_interval(rate.k, r1.n, looks)
        assert half_width(rate.lo, rate.hi) <= 0.04
    d = r1.to_dict()
    assert d["precision"]["met"] and d["interval"] == "confidence-sequence"


def test_precision_cap_is_reported(capsys):
    r = duel("Reaper", "Skyblazer", precision=0.01, max_n=500, seed=1, progress=False)
    assert r.n == 500 and not r.precision.met
    assert "NOT reached" in r.summary()
    assert "not reached in 500 games" in capsys.readouterr().err


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
