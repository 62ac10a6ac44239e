"""Intervals and tests for Monte Carlo counts.

Every rate dragonsim reports carries an interval: Wilson's score interval by default (never the
Wald interval, which undercovers near 0 and 1), Clopper-Pearson ("exact") on request.
Test tolerances are derived here too, from the sample size, not picked by hand.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

__all__ = [
    "Rate",
    "wilson",
    "clopper_pearson",
    "interval",
    "z_for",
    "binomial_consistent",
    "mean_interval",
    "PRECISION_CAP",
    "SPENDING",
    "LookPlan",
    "precision_plan",
    "precision_schedule",
    "guaranteed_n",
    "worst_half_width",
    "sequence_interval",
    "share_interval",
    "half_width",
    "sample_size",
    "SampleSize",
]


def z_for(confidence: float) -> float:
    """Two-sided normal quantile for a confidence level, e.g. 1.96 for 0.95."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


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
    lo = 0.0 if k == 0 else max(0.0, centre - half)
    hi = 1.0 if k == n else min(1.0, centre + half)
    return (lo, hi)


def clopper_pearson(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Clopper-Pearson ("exact") interval for ``k`` successes in ``n`` trials."""
    if n <= 0:
        return (0.0, 1.0)
    from scipy import stats as _st

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
    from scipy import stats as _st

    return bool(_st.binomtest(int(k), int(n), float(p)).pvalue >= alpha)


def mean_interval(total: float, total_sq: float, n: int, confidence: float = 0.95):
    """Mean and normal-approximation interval from a sum and a sum of squares."""
    if n <= 0:
        return (float("nan"), float("nan"), float("nan"))
    mean = total / n
    var = max(0.0, total_sq / n - mean * mean) * n / max(1, n - 1)
    half = z_for(confidence) * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def two_proportion_pvalue(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided p-value that two rates are equal (pooled z test; exact-enough at MC sizes)."""
    if min(n1, n2) <= 0:
        return 1.0
    p = (k1 + k2) / (n1 + n2)
    se = math.sqrt(max(p * (1 - p) * (1 / n1 + 1 / n2), 0.0))
    if se == 0.0:
        return 1.0 if k1 / n1 == k2 / n2 else 0.0
    z = (k1 / n1 - k2 / n2) / se
    return 2.0 * (1.0 - NormalDist().cdf(abs(z)))


def holm(pvalues, alpha: float = 0.05) -> list[bool]:
    """Holm's step-down procedure: which hypotheses to reject, family-wise error <= alpha.

    >>> holm([0.001, 0.04, 0.03], alpha=0.05)
    [True, False, False]
    """
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    m = len(pvalues)
    reject = [False] * m
    for rank, i in enumerate(order):
        if pvalues[i] <= alpha / (m - rank):
            reject[i] = True
        else:
            break
    return reject


def bradley_terry(
    wins, names=None, *, iters: int = 10_000, tol: float = 1e-12, confidence: float = 0.95
):
    """Bradley-Terry strengths from a matrix ``wins[i][j]`` = games i won against j.

    Draws, if any, should be split half to each side before calling. Fitted by Hunter's (2004)
    MM algorithm; ratings are on the log scale, centred at 0, with normal intervals from the
    Fisher information. Returns a pandas DataFrame sorted by rating.
    """
    import numpy as np
    import pandas as pd

    w = np.asarray(wins, dtype=float)
    k = w.shape[0]
    if w.shape != (k, k):
        raise ValueError("wins must be a square matrix")
    names = list(names) if names is not None else [str(i) for i in range(k)]
    games = w + w.T
    p = np.ones(k)
    total_wins = w.sum(axis=1)
    for _ in range(iters):
        denom = (games / (p[:, None] + p[None, :] + 1e-300)).sum(axis=1)
        new = np.where(denom > 0, total_wins / np.maximum(denom, 1e-300), p)
        new = np.maximum(new, 1e-12)
        new /= np.exp(np.mean(np.log(new)))
        if np.max(np.abs(new - p)) < tol:
            p = new
            break
        p = new
    beta = np.log(p)
    # Fisher information on the log scale, with the sum-to-zero constraint via pseudo-inverse
    pij = p[:, None] / (p[:, None] + p[None, :])
    info = -(games * pij * pij.T)
    np.fill_diagonal(info, 0.0)
    np.fill_diagonal(info, -info.sum(axis=1))
    cov = np.linalg.pinv(info)
    se = np.sqrt(np.clip(np.diag(cov), 0, None))
    z = z_for(confidence)
    df = pd.DataFrame(
        {
            "name": names,
            "rating": beta,
            "lo": beta - z * se,
            "hi": beta + z * se,
            "wins": total_wins,
            "games": games.sum(axis=1),
        }
    )
    return df.sort_values("rating", ascending=False).reset_index(drop=True)


def nontransitive_cycles(wins, names=None, *, alpha: float = 0.05) -> list[tuple[str, ...]]:
    """Triples (a, b, c) where a beats b, b beats c and c beats a, each significantly
    (two-sided binomial test against 1/2, Holm-corrected over all pairs)."""
    import itertools

    import numpy as np
    from scipy import stats as _st

    w = np.asarray(wins, dtype=float)
    k = w.shape[0]
    names = list(names) if names is not None else [str(i) for i in range(k)]
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k) if w[i, j] + w[j, i] > 0]
    pv = [
        float(_st.binomtest(int(round(w[i, j])), int(round(w[i, j] + w[j, i])), 0.5).pvalue)
        for i, j in pairs
    ]
    rej = holm(pv, alpha)
    beats = set()
    for (i, j), r in zip(pairs, rej, strict=True):
        if r:
            beats.add((i, j) if w[i, j] > w[j, i] else (j, i))
    cycles = []
    for a, b, c in itertools.permutations(range(k), 3):
        if a < b and a < c and (a, b) in beats and (b, c) in beats and (c, a) in beats:
            cycles.append((names[a], names[b], names[c]))
    return cycles


# ------------------------------------------------------------------------------------------------
# precision targets: a confidence sequence over looks fixed before any game
# ------------------------------------------------------------------------------------------------

#: the most games a precision run plays before it stops short of its target
PRECISION_CAP = 100_000_000
#: each look of the grid (:func:`precision_schedule`) plays this factor more games than the last
LOOK_RATIO = math.sqrt(2.0)
#: how a precision run can spend its error rate over its looks (:func:`precision_plan`)
SPENDING = ("shaped", "even")


def precision_schedule(
    precision: float, cap: int = PRECISION_CAP, confidence: float = 0.95
) -> list[int]:
    """The geometric grid of game counts a precision run may look at, fixed before any game:
    the looks of the even plan, and the early looks of the shaped one (:func:`precision_plan`).

    The first look is at 1/8 of the games a fixed-n 95% interval needs for a rate of 1/2
    (``z**2 / (4 precision**2)``), each next one :data:`LOOK_RATIO` times more, the last one
    at ``cap``. The grid depends on ``precision``, ``cap`` and ``confidence`` only, never on
    the games, which is what lets a plan split the error rate over it.

    >>> precision_schedule(0.05, cap=2000)
    [49, 70, 99, 139, 197, 278, 393, 555, 785, 1109, 1569, 2000]
    """
    if not 0.0 < precision < 0.5:
        raise ValueError(f"precision must be in (0, 0.5), got {precision}")
    z = z_for(confidence)
    first = max(16, math.ceil(z * z / (4.0 * precision * precision) / 8.0))
    looks: list[int] = []
    x = float(first)
    while math.ceil(x) < cap:
        n = math.ceil(x)
        if not looks or n > looks[-1]:
            looks.append(n)
        x *= LOOK_RATIO
    looks.append(int(cap))
    return looks


def sequence_interval(k: int, n: int, looks: int, confidence: float = 0.95):
    """The even plan's interval of ``k`` of ``n`` at one of ``looks`` planned looks: the
    Clopper-Pearson interval at level ``1 - (1 - confidence) / looks``.

    Clopper-Pearson covers at least its level at every fixed n, so by the union bound
    (Bonferroni over the looks) the chance that *any* look's interval misses the true rate is
    at most ``1 - confidence``. It is also the shaped plan's interval at its early looks
    (:func:`precision_plan`); a run's own intervals come from its plan, :meth:`LookPlan.interval`.
    """
    if looks < 1:
        raise ValueError(f"looks must be at least 1, got {looks}")
    return clopper_pearson(int(k), int(n), 1.0 - (1.0 - confidence) / looks)


def worst_half_width(n: int, confidence: float = 0.95) -> float:
    """The widest half-width of any count's Clopper-Pearson interval among ``n`` trials at
    ``confidence``: that of ``n // 2``, the middle, where a rate's variance is largest
    (the test suite checks every count at several n).

    >>> round(worst_half_width(1000), 4)
    0.0315
    """
    return half_width(*clopper_pearson(int(n) // 2, int(n), confidence))


def guaranteed_n(precision: float, confidence: float = 0.95) -> int:
    """The fewest games at which every count's Clopper-Pearson interval at ``confidence`` has
    a half-width of at most ``precision`` (:func:`worst_half_width`): a look there ends a
    precision run whatever its games said.

    >>> guaranteed_n(0.05)  # the normal approximation says z**2 / (4 precision**2), 385
    402
    """
    if not 0.0 < precision < 0.5:
        raise ValueError(f"precision must be in (0, 0.5), got {precision}")
    z = z_for(confidence)
    hi = max(2, math.ceil(z * z / (4.0 * precision * precision)))
    while worst_half_width(hi, confidence) > precision:
        hi *= 2
    lo = 1
    if worst_half_width(lo, confidence) <= precision:
        return lo
    while hi - lo > 1:  # worst_half_width(lo) > precision >= worst_half_width(hi)
        mid = (lo + hi) // 2
        if worst_half_width(mid, confidence) <= precision:
            hi = mid
        else:
            lo = mid
    return hi


@dataclass(frozen=True)
class LookPlan:
    """The looks of a precision run and the error rate each spends, fixed before any game
    (:func:`precision_plan`).

    At look ``i`` (``looks[i]`` games) a reported quantity's interval has confidence ``1 -
    errors[i]``. Each such interval covers at least its level at its fixed n, so by the union
    bound the chance that any look's interval misses is at most ``sum(errors)``, and the
    interval at whichever look the run stops at covers with at least ``1 - sum(errors)``,
    however the stop was chosen: a confidence sequence. ``rates`` is how many quantities the
    error rate was split over (``1 - confidence`` divided by ``rates``: every one of them
    covered at every look at once, with at least ``confidence``); 1 for each quantity on its
    own. ``parts`` is how many Clopper-Pearson intervals make one quantity's (2 for a win
    share, :func:`share_interval`).
    """

    target: float
    confidence: float
    cap: int
    looks: tuple[int, ...]
    errors: tuple[float, ...]
    spending: str = "shaped"
    rates: int = 1
    parts: int = 1

    @property
    def spent(self) -> float:
        """The error rate spent over every look and every quantity: at most ``1 -
        confidence``."""
        return math.fsum(self.errors) * self.rates

    @property
    def guaranteed(self) -> bool:
        """Whether the last look meets the target whatever the games (every count's
        interval within it): False when the cap comes first."""
        return worst_half_width(self.looks[-1], 1.0 - self.errors[-1] / self.parts) <= self.target

    def error_at(self, n: int) -> float:
        """The error rate of the look at ``n`` games; for a count between two looks (a run
        interrupted mid-look) that of the look it was playing to."""
        import bisect

        return self.errors[min(bisect.bisect_left(self.looks, int(n)), len(self.looks) - 1)]

    def level(self, n: int) -> float:
        """The confidence of a quantity's interval at ``n`` games (:meth:`error_at`)."""
        return 1.0 - self.error_at(n)

    def interval(self, k: int, n: int) -> tuple[float, float]:
        """A rate's confidence-sequence interval, ``k`` of ``n`` at the look at ``n``: the
        Clopper-Pearson interval at :meth:`level`."""
        return clopper_pearson(int(k), int(n), self.level(n))

    def describe(self) -> str:
        """One phrase for a manifest: the interval, the spending and the coverage."""
        over = "each rate on its own" if self.rates == 1 else f"all {self.rates} rates at once"
        return (
            f"confidence sequence: Clopper-Pearson at level 1 - a_k at look k, the a_k "
            f"{self.spending} ({_spending_phrase(self)}), summing to at most "
            f"{1 - self.confidence:g} over the looks and {over}"
        )


def _spending_phrase(plan: LookPlan) -> str:
    if plan.spending == "even":
        return f"{(1 - plan.confidence) / plan.rates:g}/{len(plan.looks)} each"
    return (
        f"{plan.errors[0]:.3g} at each of the {len(plan.looks) - 1} early looks, "
        f"{plan.errors[-1]:.3g} at the last"
    )


def precision_plan(
    precision: float,
    cap: int = PRECISION_CAP,
    confidence: float = 0.95,
    *,
    spending: str = "shaped",
    rates: int = 1,
    parts: int = 1,
) -> LookPlan:
    """The looks of a precision run to a half-width of ``precision`` and the error rate each
    spends, from the target, the cap and the confidence only: never from the games, so the
    same call always makes the same plan (a run repeated or resumed decides the same) and
    the union bound holds.

    ``spending="even"`` is Bonferroni over the grid of :func:`precision_schedule`: ``1 -
    confidence`` split evenly over its K looks up to ``cap``. Most of that is wasted. A
    binomial count's variance is at most 1/4, so there is a count of games
    (:func:`guaranteed_n`) at which every rate's interval meets the target whatever the
    games; no run looks past the first grid look beyond it, yet the even plan gives each
    later look its ``1/K``: at +-0.5 pp and the default cap, 20 of 30 shares go to looks no
    run reaches.

    ``spending="shaped"`` (the default) spends for the stop it predicts before any game: the
    worst case, a rate of 1/2, which needs the most games and is where a balanced matchup
    sits. Its early looks are the grid's looks before that stop, each keeping the even
    plan's ``1/K`` share, so its interval there is the even plan's; its last look gets all
    the rest (at +-0.5 pp: 23 of 30 shares) and sits at :func:`guaranteed_n` for that level,
    so the run stops there or sooner. The shares sum to at most ``1 - confidence`` (the union
    bound over looks of unequal error is as valid as over equal ones, however the stop is
    chosen). So the run never stops later than the even plan on the same games (at the
    same early look, or by the last look where the even plan had to look further), and a
    rate between about 10% and 90% stops at the last look: a fixed-n interval at about 96%,
    some 1.1 times the games a fixed-n 95% interval needs at 1/2, where the even plan needs
    2.6 to 2.8 times. Looks past the predicted stop get nothing because no run reaches them.
    A pilot to predict a smaller variance would cost games or error of its own and save
    little for rates between 10% and 90%. A normal-mixture boundary needs no plan, but it is
    approximate for binomial counts at small n and wider than one Clopper-Pearson look at a
    horizon known in advance.

    When the cap comes before the last look the shaped plan is the even plan (no look is
    sure to meet the target, so none is worth more than another).

    ``rates``: split ``1 - confidence`` over that many quantities (simultaneous coverage of
    every rate the stop waits for); ``parts``: Clopper-Pearson intervals per quantity, each at
    ``1 / parts`` of its error (2 for :func:`share_interval`). See :class:`LookPlan`.

    >>> plan = precision_plan(0.05)  # the grid's first 7 looks, then the sure one
    >>> plan.looks
    (49, 70, 99, 139, 197, 278, 393, 432)
    >>> plan.spent <= 1 - 0.95 and plan.guaranteed
    True
    """
    if spending not in SPENDING:
        raise ValueError(f"spending must be one of {', '.join(SPENDING)}, got {spending!r}")
    if int(rates) < 1 or int(parts) < 1:
        raise ValueError(f"rates and parts must be at least 1, got {rates} and {parts}")
    rates, parts = int(rates), int(parts)
    grid = precision_schedule(precision, cap, confidence)
    alpha = (1.0 - confidence) / rates
    share = alpha / len(grid)

    def plan(looks, errors, how):
        return LookPlan(
            float(precision), confidence, int(cap), tuple(looks), tuple(errors), how, rates, parts
        )

    even = plan(grid, [share] * len(grid), "even")
    if spending == "even":
        return even
    early: list[int] = []
    while True:  # the early looks only grow as the last look's share shrinks: this ends
        last_error = alpha - math.fsum([share] * len(early))
        last = guaranteed_n(precision, 1.0 - last_error / parts)
        if last >= cap or last_error <= share:
            return plan(even.looks, even.errors, "shaped")
        now = [n for n in grid if n < last]
        if len(now) == len(early):
            break
        early = now
    errors = [share] * len(early) + [last_error]
    while math.fsum(errors) * rates > 1.0 - confidence:  # rounding: never spend more
        errors[-1] = math.nextafter(errors[-1], 0.0)
    return plan([*early, last], errors, "shaped")


def share_interval(
    wins_a: int, wins_b: int, n: int, *, confidence: float = 0.95
) -> tuple[float, float]:
    """The interval of a's win share with draws counted half, ``(wins_a + draws / 2) / n``,
    from the wins of each side in ``n`` games, at ``confidence`` (a precision run's: its
    plan's :meth:`LookPlan.level` at the look, the plan made with ``parts=2``).

    The share is ``(p_a + 1 - p_b) / 2`` with ``p_a``, ``p_b`` the two win rates, increasing
    in ``p_a`` and decreasing in ``p_b``, so ``[(lo_a + 1 - hi_b) / 2, (hi_a + 1 - lo_b) /
    2]`` holds it whenever both win rates' intervals hold theirs. Each is Clopper-Pearson at
    error ``(1 - confidence) / 2`` (Bonferroni over the two rates), so the share's interval
    covers with at least ``confidence``; its half-width is the mean of the two.

    >>> lo, hi = share_interval(55, 35, 100)  # share 0.6 with 10 draws
    >>> lo < 0.6 < hi
    True
    """
    level = 1.0 - (1.0 - confidence) / 2.0
    lo_a, hi_a = clopper_pearson(int(wins_a), int(n), level)
    lo_b, hi_b = clopper_pearson(int(wins_b), int(n), level)
    return ((lo_a + 1.0 - hi_b) / 2.0, (hi_a + 1.0 - lo_b) / 2.0)


def half_width(lo: float, hi: float) -> float:
    """Half the width of an interval (what a precision target bounds)."""
    return (hi - lo) / 2.0


# ------------------------------------------------------------------------------------------------
# sample-size planning: how many games tell two win rates apart
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SampleSize:
    """Games per build to tell win rates ``p1`` and ``p2`` apart (two-sided test at
    ``alpha`` with ``power``), unpaired and, when a correlation is known, paired."""

    p1: float
    p2: float
    alpha: float
    power: float
    unpaired: int
    paired: int | None = None
    correlation: float | None = None

    @property
    def reduction(self) -> float:
        """How many times fewer games pairing needs."""
        return self.unpaired / self.paired if self.paired else float("nan")

    def to_dict(self) -> dict:
        return {
            "p1": self.p1,
            "p2": self.p2,
            "difference": self.p2 - self.p1,
            "alpha": self.alpha,
            "power": self.power,
            "games_per_build_unpaired": self.unpaired,
            "games_per_build_paired": self.paired,
            "correlation": self.correlation,
            "reduction": None if self.paired is None else self.reduction,
        }


def sample_size(
    difference: float,
    *,
    power: float = 0.8,
    alpha: float = 0.05,
    base: float = 0.5,
    correlation: float | None = None,
) -> SampleSize:
    """Games per build to detect win rates ``base`` and ``base + difference`` (two-sided).

    Unpaired (two independent runs): the normal approximation to the two-proportion z test
    with the variance pooled under the null (Fleiss, *Statistical Methods for Rates and
    Proportions*, 3rd ed., eq. 4.14, without the continuity correction)::

        n = (z_{1-a/2} sqrt(2 pbar qbar) + z_{power} sqrt(p1 q1 + p2 q2))**2 / d**2

    Paired (both builds play the same games, common random numbers), the per-game difference
    of the two 0/1 outcomes has variance ``p1 q1 + p2 q2 - 2 r sqrt(p1 q1 p2 q2)`` with ``r``
    the correlation of the outcomes; under the null ``2 pbar qbar (1 - r)``. The same formula
    with these variances gives the pairs needed; at ``r = 0`` it is the unpaired answer.

    >>> sample_size(0.1, base=0.5).unpaired  # 50% against 60%
    388
    """
    from .errors import UserError

    p1, p2 = float(base), float(base) + float(difference)
    if not 0.0 < p1 < 1.0 or not 0.0 < p2 < 1.0:
        raise UserError(
            f"base and base + difference must be win rates in (0, 1), got {p1:g} and {p2:g}"
        )
    if difference == 0:
        raise UserError("difference must not be 0")
    if not 0.0 < power < 1.0:
        raise UserError(f"power must be in (0, 1), got {power}")
    if not 0.0 < alpha < 1.0:
        raise UserError(f"alpha must be in (0, 1), got {alpha}")
    za = z_for(1.0 - alpha)
    zb = NormalDist().inv_cdf(power)
    pbar = (p1 + p2) / 2.0
    v0 = 2.0 * pbar * (1.0 - pbar)
    v1 = p1 * (1.0 - p1) + p2 * (1.0 - p2)
    d2 = (p2 - p1) ** 2

    def n_for(v0_: float, v1_: float) -> int:
        return max(1, math.ceil((za * math.sqrt(v0_) + zb * math.sqrt(v1_)) ** 2 / d2 - 1e-9))

    unpaired = n_for(v0, v1)
    paired = None
    if correlation is not None:
        r = float(correlation)
        if not -1.0 < r < 1.0:
            raise UserError(f"correlation must be in (-1, 1), got {correlation}")
        cov = r * math.sqrt(p1 * (1 - p1) * p2 * (1 - p2))
        paired = n_for(v0 * (1.0 - r), max(v1 - 2.0 * cov, 1e-12))
    return SampleSize(p1, p2, float(alpha), float(power), unpaired, paired, correlation)
