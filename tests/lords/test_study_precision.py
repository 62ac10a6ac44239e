"""Precision targets on the balance studies (``tournament``, ``sensitivity``): the duel's
stopping rule (a confidence sequence over the looks of :func:`dragonsim.stats.precision_plan`)
applied to every reported rate; the half-width at the stop is within the target, the stop is
the first look that reaches it, and the same seed and precision give the same n and answer."""

import json

import numpy as np
import pytest

from dragonsim.cli import main
from dragonsim.errors import UserError
from dragonsim.lords.analysis import study
from dragonsim.stats import half_width, share_interval

TARGET = 0.08
BOT = "random"  # the fastest bot: the stopping rule does not depend on who plays


def _pair_wins(a, b, n, seed):
    """a's and b's wins in a tournament pair's ``n`` games, played again here apart from the
    tournament: ``n - n // 2`` with a first on ``seed``, ``n // 2`` with b first on ``seed + 1``."""
    w1 = study.outcomes(a, b, n=n - n // 2, seed=seed, policies=(BOT, BOT))
    w2 = study.outcomes(b, a, n=n // 2, seed=seed + 1, policies=(BOT, BOT))
    return int((w1 == 0).sum() + (w2 == 1).sum()), int((w1 == 1).sum() + (w2 == 0).sum())


def test_share_interval_covers_a_known_share_at_its_nominal_rate():
    """Coverage of the win share with draws half (p_a = 0.40, p_b = 0.35, draws 0.25: share
    0.525) by one look's interval over 1,000 multinomial samples of 150 games: the misses are
    at most a Binomial(1000, 0.05) count's 99.9% quantile (73), by Bonferroni over the two
    win rates each interval at 2.5%."""
    rng = np.random.default_rng(7)
    counts = rng.multinomial(150, [0.40, 0.35, 0.25], size=1000)
    miss = 0
    for wa, wb, _ in counts:
        lo, hi = share_interval(wa, wb, 150)
        miss += not lo <= 0.525 <= hi
    assert miss <= 73


def test_tournament_precision_stops_at_the_first_look_within_the_target_and_repeats():
    """Each pair stops at a planned look; its share's confidence-sequence half-width, from
    the pair's games played again apart, is within the target there and was not at the look
    before (the first look that reaches it). The same seed and precision give the same games
    per pair and the same win matrix, equal to a fixed-n round robin of a pair's n."""
    dragons = ["Reaper", "Skyblazer", "Slash"]
    r1 = study.tournament(dragons, precision=TARGET, seed=4, policy=BOT)
    r2 = study.tournament(dragons, precision=TARGET, seed=4, policy=BOT)
    assert r1.n_pairs == r2.n_pairs and np.array_equal(r1.wins, r2.wins)
    plan = r1.precision.plan
    looks = r1.precision.looks
    assert r1.precision.met and r1.precision.widest <= TARGET
    for (a, b), n in r1.n_pairs.items():
        k = looks.index(n)
        wa, wb = _pair_wins(a, b, n, 4)
        assert half_width(*share_interval(wa, wb, n, confidence=plan.level(n))) <= TARGET
        if k > 0:
            m = looks[k - 1]
            pa, pb = _pair_wins(a, b, m, 4)
            assert half_width(*share_interval(pa, pb, m, confidence=plan.level(m))) > TARGET
        i, j = r1.names.index(a), r1.names.index(b)
        assert r1.wins[i, j] == pytest.approx(wa + (n - wa - wb) / 2)
    (a, b), n = next(iter(r1.n_pairs.items()))
    fixed = study.tournament([a, b], n=n, seed=4, policy=BOT)
    i, j = r1.names.index(a), r1.names.index(b)
    assert fixed.wins[0, 1] == r1.wins[i, j]
    d = r1.to_dict()
    assert d["precision"]["met"] and {x["n"] for x in d["n_pairs"]} <= set(looks)


def test_sensitivity_precision_bounds_every_win_rate_and_repeats():
    """Every value's win rate and the value in force's are within the target at the stop
    (the intervals are the confidence sequence's), the same seed and precision repeat, and
    the rows are a fixed-n study's of that n."""
    kw = dict(rule="altitude_mod", values=[[0, 1, 1, 2, 2]], seed=2, policies=(BOT, BOT))
    df = study.sensitivity("Reaper", "Skyblazer", precision=TARGET, **kw)
    again = study.sensitivity("Reaper", "Skyblazer", precision=TARGET, **kw)
    n = df.attrs["n"]
    assert n == again.attrs["n"] and df.equals(again)
    plan = df.attrs["precision_run"].plan
    assert df.attrs["precision"]["met"] and n in plan.looks
    for _, r in df.iterrows():
        k = round(r["win_rate_a"] * n)
        assert (r["ci_low"], r["ci_high"]) == plan.interval(k, n)
        assert half_width(r["ci_low"], r["ci_high"]) <= TARGET
    base = study.outcomes("Reaper", "Skyblazer", n=n, seed=2, policies=(BOT, BOT))
    assert half_width(*plan.interval(int((base == 0).sum()), n)) <= TARGET
    fixed = study.sensitivity("Reaper", "Skyblazer", n=n, **kw)
    assert fixed["win_rate_a"].tolist() == df["win_rate_a"].tolist()
    assert fixed["difference"].tolist() == df["difference"].tolist()


def test_n_and_precision_exclude_each_other_on_the_studies(capsys):
    with pytest.raises(UserError, match="not both"):
        study.tournament(["Reaper", "Skyblazer"], n=10, precision=0.05)
    with pytest.raises(UserError, match="not both"):
        study.sensitivity("Reaper", "Skyblazer", rule="altitude_mod", values=[[0]], n=10,
                          precision=0.05)  # fmt: skip
    with pytest.raises(UserError, match="checkpoints and records"):
        study.tournament(["Reaper", "Skyblazer"], precision=0.05, checkpoint="/tmp/x.ckpt")
    assert main(["tournament", "Reaper", "Skyblazer", "-n", "10", "--precision", "0.05"]) == 2
    assert "not both" in capsys.readouterr().err
    argv = ["sensitivity", "Reaper", "Skyblazer", "--rule", "altitude_mod", "--values",
            "[0,1,1,2,2]", "--policies", f"{BOT},{BOT}"]  # fmt: skip
    assert main([*argv, "-n", "10", "--precision", "0.05"]) == 2
    assert "not both" in capsys.readouterr().err
    assert main([*argv, "--precision", str(TARGET), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["precision"]["met"] and d["n"] == d["manifest"]["n"]
    # --simultaneous: the value in force's win rate and the value's, covered at once
    assert main([*argv, "--precision", str(TARGET), "--simultaneous", "--json"]) == 0
    both = json.loads(capsys.readouterr().out)
    assert both["precision"]["rates_covered_at_once"] == 2 and both["n"] >= d["n"]
    assert main([*argv, "-n", "10", "--simultaneous"]) == 2
    assert "--simultaneous" in capsys.readouterr().err
