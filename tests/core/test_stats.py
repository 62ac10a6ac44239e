"""Intervals (DESIGN.md 'Statistics': Wilson by default, Clopper-Pearson on request)."""

import pytest

from dragonsim.stats import Rate, binomial_consistent, clopper_pearson, interval, wilson


def test_wilson_known_values():
    # Wilson (1927) score interval, 95%: 50/100 -> [0.4038, 0.5962]; 0/10 -> [0, 0.2775]
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.40383, abs=1e-4) and hi == pytest.approx(0.59617, abs=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.27753, abs=1e-4)


def test_clopper_pearson_known_values():
    # 0/10 exact upper bound is 1 - 0.025**(1/10)
    lo, hi = clopper_pearson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(1 - 0.025**0.1, rel=1e-9)


def test_rate_and_unknown_method():
    r = Rate.of(30, 100)
    assert r.rate == 0.3 and r.lo < 0.3 < r.hi
    with pytest.raises(ValueError, match="allowed"):
        interval(1, 2, method="wald")


def test_binomial_consistent_rejects_wrong_p():
    assert binomial_consistent(5000, 10000, 0.5)
    assert not binomial_consistent(5400, 10000, 0.5)


def test_holm_controls_family_wise_error():
    from dragonsim.stats import holm

    assert holm([0.001, 0.04, 0.03], alpha=0.05) == [True, False, False]
    assert holm([0.01, 0.02, 0.03], alpha=0.1) == [True, True, True]


def test_two_proportion_pvalue():
    from dragonsim.stats import two_proportion_pvalue

    assert two_proportion_pvalue(500, 1000, 500, 1000) == pytest.approx(1.0)
    assert two_proportion_pvalue(5000, 10000, 5400, 10000) < 1e-6


def test_bradley_terry_recovers_known_strengths_and_finds_cycles():
    import numpy as np

    from dragonsim.stats import bradley_terry, nontransitive_cycles

    strength = np.array([4.0, 2.0, 1.0])
    n = 20000
    wins = np.zeros((3, 3))
    for i in range(3):
        for j in range(3):
            if i != j:
                wins[i, j] = n * strength[i] / (strength[i] + strength[j])
    df = bradley_terry(wins, ["a", "b", "c"])
    assert list(df["name"]) == ["a", "b", "c"]
    r = dict(zip(df["name"], df["rating"], strict=True))
    assert r["a"] - r["b"] == pytest.approx(np.log(2), abs=1e-6)
    assert (df["lo"] < df["rating"]).all() and (df["rating"] < df["hi"]).all()
    assert nontransitive_cycles(wins, ["a", "b", "c"]) == []
    rps = np.array([[0, 700, 300], [300, 0, 700], [700, 300, 0]])
    assert nontransitive_cycles(rps, ["rock", "paper", "scissors"]) == [
        ("rock", "paper", "scissors")
    ]
