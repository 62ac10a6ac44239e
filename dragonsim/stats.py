"""Intervals and tests for Monte Carlo counts.

Every rate dragonsim reports carries an interval: Wilson's score interval by default (never the
Wald interval, which undercovers near 0 and 1), Clopper-Pearson ("exact") on request.
Test tolerances are derived here too, from the sample size, not picked by hand.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scipy import stats as _st

__all__ = [
    "Rate",
    "wilson",
    "clopper_pearson",
    "interval",
    "z_for",
    "binomial_consistent",
    "mean_interval",
]


def z_for(confidence: float) -> float:
    """Two-sided normal quantile for a confidence level, e.g. 1.96 for 0.95."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    return float(_st.norm.ppf(0.5 + confidence / 2.0))


def wilson(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for ``k`` successes in ``n`` trials.

    >>> lo, hi = wilson(50, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.4038, 0.5962)
    """
    if n <= 0:
        return (0.0, 1.0)
    z = z_for(confidence)
    p = k / n
    den = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def clopper_pearson(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Clopper-Pearson ("exact") interval for ``k`` successes in ``n`` trials."""
    if n <= 0:
        return (0.0, 1.0)
    a = 1.0 - confidence
    lo = 0.0 if k == 0 else float(_st.beta.ppf(a / 2, k, n - k + 1))
    hi = 1.0 if k == n else float(_st.beta.ppf(1 - a / 2, k + 1, n - k))
    return (lo, hi)


_METHODS = {"wilson": wilson, "clopper-pearson": clopper_pearson, "exact": clopper_pearson}


def interval(k: int, n: int, confidence: float = 0.95, method: str = "wilson"):
    """Interval for a rate by ``method`` ('wilson' or 'clopper-pearson')."""
    try:
        fn = _METHODS[method]
    except KeyError:
        raise ValueError(
            f"unknown interval method {method!r}; allowed: {', '.join(sorted(_METHODS))}"
        ) from None
    return fn(k, n, confidence)


@dataclass(frozen=True)
class Rate:
    """A count out of a total, with its interval.

    >>> r = Rate.of(30, 100)
    >>> r.rate
    0.3
    >>> r.lo < 0.3 < r.hi
    True
    """

    k: int
    n: int
    lo: float
    hi: float
    confidence: float = 0.95
    method: str = "wilson"

    @classmethod
    def of(cls, k: int, n: int, confidence: float = 0.95, method: str = "wilson") -> Rate:
        lo, hi = interval(int(k), int(n), confidence, method)
        return cls(int(k), int(n), lo, hi, confidence, method)

    @property
    def rate(self) -> float:
        return self.k / self.n if self.n else float("nan")

    @property
    def ci(self) -> tuple[float, float]:
        return (self.lo, self.hi)

    def __str__(self) -> str:
        return f"{100 * self.rate:.2f}% [{100 * self.lo:.2f}, {100 * self.hi:.2f}]"


def binomial_consistent(k: int, n: int, p: float, alpha: float = 1e-6) -> bool:
    """True when ``k`` of ``n`` is consistent with probability ``p`` (two-sided exact test).

    Tests use a small ``alpha`` so that a correct kernel fails with probability ``alpha``
    per check, while a wrong probability is still caught at the sample sizes we run.
    """
    return bool(_st.binomtest(int(k), int(n), float(p)).pvalue >= alpha)


def mean_interval(total: float, total_sq: float, n: int, confidence: float = 0.95):
    """Mean and normal-approximation interval from a sum and a sum of squares."""
    if n <= 0:
        return (float("nan"), float("nan"), float("nan"))
    mean = total / n
    var = max(0.0, total_sq / n - mean * mean) * n / max(1, n - 1)
    half = z_for(confidence) * math.sqrt(var / n)
    return (mean, mean - half, mean + half)
