"""Balance studies on Dragon Lords duels: paired comparisons, rule sensitivity, tournaments.

Every game ``i`` draws from the stream ``(seed, i)``, so two configurations played on the same
game indices share their dice (common random numbers). :func:`compare` uses that: it keeps the
per-game outcome of both and reports the *paired* difference of win rates, its interval, an
exact McNemar test, and the variance reduction the pairing achieved over independent runs.

:func:`sensitivity` answers "how much does my answer depend on this assumed value?";
:func:`tournament` plays a round robin and fits Bradley-Terry ratings with intervals, flagging
non-transitive cycles.

Examples
--------
>>> from dragonsim.lords.study import sensitivity
>>> df = sensitivity("Reaper", "Skyblazer", rule="altitude_mod",
...                  values=[[0, 0, 1, 1, 2], [0, 1, 1, 2, 2]], n=2000)  # doctest: +SKIP
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import defaults
from ..errors import UserError, parse_count
from ..stats import Rate, bradley_terry, nontransitive_cycles, z_for
from . import engine as E
from . import state as S

__all__ = ["outcomes", "compare", "PairedResult", "sensitivity", "tournament", "TournamentResult"]

_BLOCK = 1 << 16
#: most values one sensitivity study plays, and most dragons in one round robin
MAX_VALUES = 100
MAX_ENTRANTS = 32


def outcomes(
    a,
    b,
    *,
    n: int,
    seed: int = 1,
    policies: Sequence[str] = ("hunter", "hunter"),
    rules=None,
    turn_limit: int = defaults.TURN_LIMIT,
) -> np.ndarray:
    """The winner of each game ``0..n-1``: int8, 0 = ``a``, 1 = ``b``, -1 = draw.

    Memory is one byte per game; the kernel runs in blocks, in parallel.
    """
    from .api import _rules, prepare, resolve_policies

    n = parse_count(n)
    pols = resolve_policies(None, policies)
    prep = prepare(a, b, policies=pols, rules=_rules(rules), turn_limit=int(turn_limit))
    out = np.empty(n, dtype=np.int8)
    for start in range(0, n, _BLOCK):
        stop = min(n, start + _BLOCK)
        rec = np.zeros((stop - start, S.N_REC), dtype=np.int64)
        E.duel_kernel(start, stop, int(seed), *prep["args"], rec)
        out[start:stop] = rec[:, S.R_WINNER]
    return out


@dataclass
class PairedResult:
    """Side A's win rate under a base and an alternative configuration, on the same games."""

    n: int
    base: Rate
    alt: Rate
    difference: float
    ci: tuple[float, float]
    ci_unpaired: tuple[float, float]
    variance_reduction: float
    discordant: tuple[int, int]
    pvalue: float
    labels: tuple[str, str] = ("base", "alt")

    def to_dict(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "labels": list(self.labels),
            "win_rate_base": self.base.rate,
            "ci_base": list(self.base.ci),
            "win_rate_alt": self.alt.rate,
            "ci_alt": list(self.alt.ci),
            "difference": self.difference,
            "ci_difference": list(self.ci),
            "ci_difference_unpaired": list(self.ci_unpaired),
            "variance_reduction": self.variance_reduction,
            "discordant": list(self.discordant),
            "mcnemar_p": self.pvalue,
        }

    def summary(self) -> str:
        lo, hi = self.ci
        return (
            f"A's win rate {self.labels[0]} {self.base}, {self.labels[1]} {self.alt}; "
            f"difference {100 * self.difference:+.2f} pp [{100 * lo:+.2f}, {100 * hi:+.2f}] "
            f"(paired on {self.n:,} common games, McNemar p={self.pvalue:.2g}; pairing cut "
            f"the variance {self.variance_reduction:.1f}x)"
        )


def paired(
    x: np.ndarray,
    y: np.ndarray,
    confidence: float = 0.95,
    labels: tuple[str, str] = ("base", "alt"),
) -> PairedResult:
    """Paired comparison of two 0/1 outcome vectors over the same games."""
    from scipy import stats as st

    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    n = len(x)
    d = y - x
    z = z_for(confidence)
    diff = float(d.mean())
    var_p = float(d.var(ddof=1)) / n if n > 1 else math.inf
    var_u = (float(x.var(ddof=1)) + float(y.var(ddof=1))) / n if n > 1 else math.inf
    b = int(np.sum((x == 1) & (y == 0)))
    c = int(np.sum((x == 0) & (y == 1)))
    p = float(st.binomtest(b, b + c, 0.5).pvalue) if b + c else 1.0
    half_p = z * math.sqrt(var_p)
    half_u = z * math.sqrt(var_u)
    return PairedResult(
        n=n,
        base=Rate.of(int(x.sum()), n),
        alt=Rate.of(int(y.sum()), n),
        difference=diff,
        ci=(diff - half_p, diff + half_p),
        ci_unpaired=(diff - half_u, diff + half_u),
        variance_reduction=(var_u / var_p) if var_p > 0 else math.inf,
        discordant=(b, c),
        pvalue=p,
        labels=labels,
    )


def compare(
    a,
    b,
    *,
    n: int,
    seed: int = 1,
    base: Mapping[str, Any] | None = None,
    alt: Mapping[str, Any],
    policies: Sequence[str] = ("hunter", "hunter"),
    confidence: float = 0.95,
) -> PairedResult:
    """Paired comparison of ``a``'s win rate against ``b`` under two configurations.

    ``base`` and ``alt`` may set ``a``, ``b``, ``policies``, ``rules`` (an overrides mapping
    or RuleSet) and ``turn_limit``; unset keys come from the arguments. Both play games
    ``0..n-1`` of ``seed``.
    """

    def run(cfg: Mapping[str, Any]) -> np.ndarray:
        if not isinstance(cfg, Mapping):
            raise UserError(
                f"base and alt must be mappings of a, b, policies, rules, turn_limit; got {cfg!r}"
            )
        unknown = set(cfg) - {"a", "b", "policies", "rules", "turn_limit"}
        if unknown:
            raise UserError(
                f"unknown configuration key(s) {sorted(unknown)}; allowed: a, b, "
                "policies, rules, turn_limit"
            )
        w = outcomes(
            cfg.get("a", a),
            cfg.get("b", b),
            n=n,
            seed=seed,
            policies=cfg.get("policies", policies),
            rules=cfg.get("rules"),
            turn_limit=cfg.get("turn_limit", defaults.TURN_LIMIT),
        )
        return (w == 0).astype(np.int8)

    return paired(run(base or {}), run(alt), confidence)


def _parse_value(text: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def sensitivity(
    a,
    b,
    *,
    rule: str,
    values: Sequence[Any],
    n: int,
    seed: int = 1,
    policies: Sequence[str] = ("hunter", "hunter"),
    confidence: float = 0.95,
    rules=None,
):
    """``a``'s win rate for each value of one rule, paired against the rule's value in force.

    ``rule`` is any overridable key (``altitude_mod``, ``damage_allocation.7``, ...); values
    are checked like any override. ``rules`` (a RuleSet or overrides) is the game the sweep
    starts from (default: the rules as printed and assumed); each value is applied on top of
    it. Returns a pandas DataFrame, one row per value.
    """
    import pandas as pd

    from .api import _rules

    if not isinstance(rule, str) or not rule.strip():
        raise UserError(f"rule must be a rule key such as altitude_mod, got {rule!r}")
    if isinstance(values, str | bytes | Mapping) or not isinstance(values, Sequence):
        raise UserError(f"values must be a list of rule values, got {values!r}")
    if not 1 <= len(values) <= MAX_VALUES:
        raise UserError(f"sensitivity needs 1 to {MAX_VALUES} values, got {len(values)}")
    n = parse_count(n)
    key = rule if rule.startswith("lords.") else f"lords.{rule}"
    start = _rules(rules)
    default = start.get(key)
    for v in values:  # refuse a bad value before any game is played
        start.with_overrides({key: v})
    base = outcomes(a, b, n=n, seed=seed, policies=policies, rules=start) == 0
    rows = []
    for v in values:
        alt = (
            outcomes(a, b, n=n, seed=seed, policies=policies, rules=start.with_overrides({key: v}))
            == 0
        )
        r = paired(base, alt, confidence)
        rows.append(
            {
                "rule": key,
                "value": json.dumps(v),
                "is_default": v == default,
                "win_rate_a": r.alt.rate,
                "ci_low": r.alt.lo,
                "ci_high": r.alt.hi,
                "difference": r.difference,
                "diff_low": r.ci[0],
                "diff_high": r.ci[1],
                "mcnemar_p": r.pvalue,
                "variance_reduction": r.variance_reduction,
            }
        )
    return pd.DataFrame(rows)


@dataclass
class TournamentResult:
    names: list[str]
    n: int
    seed: int
    policy: str
    wins: np.ndarray  # [k, k] games i won against j, draws split half to each
    ratings: Any  # pandas DataFrame (Bradley-Terry)
    cycles: list[tuple[str, ...]]
    manifest: dict[str, Any] = field(default_factory=dict)

    def matrix(self):
        """P(row beats column), draws counted half."""
        import pandas as pd

        games = self.wins + self.wins.T
        with np.errstate(invalid="ignore", divide="ignore"):
            p = np.where(games > 0, self.wins / games, np.nan)
        return pd.DataFrame(p, index=self.names, columns=self.names)

    def to_dict(self) -> dict[str, Any]:
        return {
            "names": self.names,
            "n_per_pair": self.n,
            "seed": self.seed,
            "policy": self.policy,
            "ratings": self.ratings.to_dict(orient="records"),
            "cycles": [list(c) for c in self.cycles],
            "manifest": self.manifest,
        }

    def summary(self) -> str:
        lines = [
            f"Round robin, {self.n:,} games per pair, policy {self.policy}, seed {self.seed}",
            f"  {'dragon':<14} {'rating':>7}  {'95% interval':>17}  {'win share':>9}",
        ]
        for _, r in self.ratings.iterrows():
            lines.append(
                f"  {r['name']:<14} {r['rating']:+7.3f}  [{r['lo']:+7.3f}, "
                f"{r['hi']:+7.3f}]  {r['wins'] / max(r['games'], 1):9.3f}"
            )
        lines.append(
            "  non-transitive cycles: "
            + (", ".join(" > ".join(c) + " > " + c[0] for c in self.cycles) or "none")
        )
        return "\n".join(lines)


def tournament(dragons: Sequence, *, n: int, seed: int = 1, policy: str = "hunter", rules=None):
    """Round robin: every pair plays ``n`` games (each side first-listed in half of them).

    Draws count half a win to each. Returns Bradley-Terry ratings (log scale, centred) with
    intervals, the win matrix and any significant non-transitive cycles (Holm, 5%).
    ``rules``: a RuleSet or overrides (default: the rules as printed and assumed).
    """
    from ..report import manifest
    from .api import _rules
    from .sheets import sheet

    n = parse_count(n)
    if isinstance(dragons, str) or not isinstance(dragons, Sequence):
        raise UserError(f"dragons must be a list of two or more dragons, got {dragons!r}")
    if not 2 <= len(dragons) <= MAX_ENTRANTS:
        raise UserError(
            f"a tournament needs 2 to {MAX_ENTRANTS} dragons, got {len(dragons)}"
        )
    rs = _rules(rules)
    sheets = [sheet(d, rules=rs) for d in dragons]
    names = [s.name for s in sheets]
    if len(set(names)) != len(names) or len(names) < 2:
        raise UserError(f"a tournament needs at least two different dragons, got {names}")
    k = len(sheets)
    wins = np.zeros((k, k))
    half = n // 2
    for i in range(k):
        for j in range(i + 1, k):
            for first, second, m, s in ((i, j, n - half, seed), (j, i, half, seed + 1)):
                if m == 0:
                    continue
                w = outcomes(
                    sheets[first], sheets[second], n=m, seed=s, policies=(policy, policy), rules=rs
                )
                wins[first, second] += np.sum(w == 0) + 0.5 * np.sum(w == -1)
                wins[second, first] += np.sum(w == 1) + 0.5 * np.sum(w == -1)
    ratings = bradley_terry(wins, names)
    return TournamentResult(
        names,
        n,
        seed,
        policy,
        wins,
        ratings,
        nontransitive_cycles(wins, names),
        manifest(
            rules_hash=rs.hash, rules_overrides=rs.overrides, seed=seed, n_per_pair=n, policy=policy
        ),
    )
