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
    assert lo == 0.0 and hi == pytest.approx(1 - 0.025 ** 0.1, rel=1e-9)


def test_rate_and_unknown_method():
    r = Rate.of(30, 100)
    assert r.rate == 0.3 and r.lo < 0.3 < r.hi
    with pytest.raises(ValueError, match="allowed"):
        interval(1, 2, method="wald")


def test_binomial_consistent_rejects_wrong_p():
    assert binomial_consistent(5000, 10000, 0.5)
    assert not binomial_consistent(5400, 10000, 0.5)
