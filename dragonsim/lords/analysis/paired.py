"""Paired comparisons on common random numbers: every game ``i`` draws from the stream
``(seed, i)``, so two configurations played on the same game indices share their dice.

:func:`outcomes` keeps each game's winner; :func:`paired` compares two 0/1 outcome vectors of
the same games (the paired difference of win rates, its interval, an exact McNemar test, and
the variance reduction the pairing achieved over independent runs); :func:`compare` plays a
duel under two configurations and pairs them; :func:`pilot` measures the correlation a paired
study of two builds gets. The rule sweeps (:mod:`~dragonsim.lords.analysis.rulesweep`) and the
round robin (:mod:`~dragonsim.lords.analysis.study`) are built on them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ... import defaults
from ...checkpoint import Checkpoint, open_checkpoint
from ...errors import UserError, parse_count
from ...stats import Rate, z_for
from .. import engine as E
from ..game import state as S

__all__ = ["outcomes", "compare", "paired", "PairedResult", "pilot", "Pilot"]


def outcomes(
    a,
    b,
    *,
    n: int,
    seed: int = 1,
    policies: Sequence[str] = ("hunter", "hunter"),
    rules=None,
    turn_limit: int = defaults.TURN_LIMIT,
    progress: bool | None = False,
    checkpoint=None,
    interrupted: list | None = None,
    records=None,
    context: Mapping[str, Any] | None = None,
    first: int = 0,
    backend: str = "local",
    dask_client=None,
    threads: int | None = None,
) -> np.ndarray:
    """The winner of each game ``first..first+n-1``: int8, 0 = ``a``, 1 = ``b``, -1 = draw.

    Memory is one byte per game; the kernel runs in blocks, in parallel. An interruption
    (Ctrl-C, or SIGTERM under :func:`dragonsim.runner.handle_signals`) returns the games that
    finished (a shorter array) and appends True to ``interrupted`` when given. ``checkpoint``:
    a :class:`~dragonsim.checkpoint.Section` (or a path) the finished games are kept in.
    ``records``: a :class:`~dragonsim.records.RecordsFile` that gets every game's row
    (:data:`~dragonsim.lords.results.DUEL_COLUMNS` and ``context``'s constant columns).
    ``backend``, ``dask_client``: as for :func:`~dragonsim.runner.run_blocks` (on ``"dask"``
    each block sends its games' winners back with its counters; no records). ``threads``:
    numba threads (default all cores); the winners do not depend on it.
    """
    from ...runner import run_blocks
    from ..inputs import _rules, prepare, resolve_policies
    from ..results import record_columns

    n = parse_count(n)
    if backend == "dask" and records is not None:
        raise UserError(
            "records are written by the local backend only; drop records= or use backend='local'"
        )
    pols = resolve_policies(None, policies)
    rs = _rules(rules)
    prep = prepare(a, b, policies=pols, rules=rs, turn_limit=int(turn_limit))
    section = open_checkpoint(
        checkpoint,
        {
            "command": "outcomes",
            "a": prep["a"].name,
            "b": prep["b"].name,
            "policies": list(pols),
            "seed": seed,
            "n": n,
            "rules_hash": rs.hash,
        },
    )
    current: list[np.ndarray] = []
    runrec = records.run(section, context or {}) if records is not None else None
    names = (prep["a"].name, prep["b"].name)

    def kernel(start, stop, seed_, *kargs):
        rec = np.zeros((stop - start, S.N_REC), dtype=np.int64)
        counters = E.duel_kernel(start, stop, seed_, *kargs, rec)
        current[:] = [rec]
        return counters

    def on_block(start, stop, part):
        if runrec is not None:
            runrec.block(start, stop, record_columns(current[0], start, names, True))
        return current[0][:, S.R_WINNER].astype(np.int8).tobytes()

    remote = backend == "dask"
    out = run_blocks(
        _winners_block if remote else kernel,
        n,
        seed,
        prep["args"],
        first=first,
        progress=progress,
        on_block=None if remote else on_block,
        checkpoint=section,
        backend=backend,
        dask_client=dask_client,
        threads=threads,
        compiled=E.play_chunks,
        game="Dragon Lords",
        label=f"games {prep['a'].name}-{prep['b'].name}",
    )
    if runrec is not None:
        runrec.finish(out.n)
    if out.interrupted and interrupted is not None:
        interrupted.append(True)
    return np.frombuffer(out.extra, dtype=np.int8)[: out.n].copy()


def _winners_block(start, stop, seed, *args):
    """The duel kernel's counters and each game's winner (int8 bytes: 0, 1, -1 a draw), for
    :func:`outcomes` on a Dask worker, where no ``on_block`` can read a side channel."""
    rec = np.zeros((stop - start, S.N_REC), dtype=np.int64)
    counters = E.duel_kernel(start, stop, seed, *args, rec)
    return counters, rec[:, S.R_WINNER].astype(np.int8).tobytes()


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


@dataclass(frozen=True)
class Pilot:
    """A pilot of paired games: builds ``a`` and ``b`` each against ``against`` on the same
    game indices (common random numbers), their win rates and the correlation of the two
    0/1 outcomes, the figure :func:`dragonsim.stats.sample_size` turns into fewer games."""

    a: str
    b: str
    against: str
    n: int
    seed: int
    rate_a: Rate
    rate_b: Rate
    correlation: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "against": self.against,
            "n": self.n,
            "seed": self.seed,
            "win_rate_a": self.rate_a.rate,
            "ci_a": list(self.rate_a.ci),
            "win_rate_b": self.rate_b.rate,
            "ci_b": list(self.rate_b.ci),
            "correlation": self.correlation,
        }


def pilot(
    a,
    b,
    *,
    against,
    n: int = 2000,
    seed: int = 1,
    policies: Sequence[str] = ("hunter", "hunter"),
    rules=None,
    progress: bool | None = False,
    threads: int | None = None,
) -> Pilot:
    """Play ``a`` and ``b`` against ``against`` on games ``0..n-1`` of ``seed`` and measure the
    correlation of their wins (a draw is not a win), the variance reduction a paired study of
    the two builds gets (:func:`dragonsim.stats.sample_size`). ``progress``, ``threads``: as
    for :func:`outcomes`."""
    from ..game.sheets import sheet
    from ..inputs import _rules

    n = parse_count(n, "pilot games")
    if n < 10:
        raise UserError(f"a pilot needs at least 10 games to estimate a correlation, got {n}")
    rs = _rules(rules)
    run = dict(n=n, seed=seed, policies=policies, rules=rs, progress=progress, threads=threads)
    x = outcomes(a, against, **run)
    y = outcomes(b, against, **run)
    x = (x == 0).astype(np.float64)
    y = (y == 0).astype(np.float64)
    sx, sy = float(x.std()), float(y.std())
    r = float(np.mean((x - x.mean()) * (y - y.mean())) / (sx * sy)) if sx > 0 and sy > 0 else 0.0
    return Pilot(
        sheet(a, rules=rs).name,
        sheet(b, rules=rs).name,
        sheet(against, rules=rs).name,
        n,
        int(seed),
        Rate.of(int(x.sum()), n),
        Rate.of(int(y.sum()), n),
        r,
    )


def _checkpoint(checkpoint, identity) -> Checkpoint | None:
    """A study's checkpoint (one section per kernel run), from a path or a Checkpoint."""
    if checkpoint is None or isinstance(checkpoint, Checkpoint):
        return checkpoint
    return Checkpoint(checkpoint, identity)
