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
>>> from dragonsim.lords.analysis.study import sensitivity
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

from ... import defaults
from ...checkpoint import Checkpoint, open_checkpoint
from ...errors import UserError, parse_count
from ...stats import Rate, bradley_terry, nontransitive_cycles, z_for
from .. import engine as E
from ..game import state as S
from ..game.sheets import rule_switches

__all__ = [
    "outcomes",
    "compare",
    "pilot",
    "Pilot",
    "PairedResult",
    "sensitivity",
    "tournament",
    "TournamentResult",
]

_BLOCK = 1 << 16
#: the columns a sensitivity study's records add to a duel's (``records=``)
SENSITIVITY_COLUMNS = {
    "value": "the rule's value these games were played under (JSON)",
    "is_base": "true for the base games: under the value in force before the study, the one "
    "every value is paired with",
}
#: the columns a tournament's records add to a duel's (``records=``)
TOURNAMENT_COLUMNS = {
    "a": "the dragon listed first in these games (side 0: winner_side 0 is a win for it)",
    "b": "the dragon listed second (side 1)",
    "seed": "the seed of these games (each pair plays the second half of its games with the "
    "other dragon listed first, on the next seed)",
}
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
    progress: bool | None = False,
    checkpoint=None,
    interrupted: list | None = None,
    records=None,
    context: Mapping[str, Any] | None = None,
    first: int = 0,
    backend: str = "local",
    dask_client=None,
) -> np.ndarray:
    """The winner of each game ``first..first+n-1``: int8, 0 = ``a``, 1 = ``b``, -1 = draw.

    Memory is one byte per game; the kernel runs in blocks, in parallel. An interruption
    (Ctrl-C, or SIGTERM under :func:`dragonsim.runner.handle_signals`) returns the games that
    finished (a shorter array) and appends True to ``interrupted`` when given. ``checkpoint``:
    a :class:`~dragonsim.checkpoint.Section` (or a path) the finished games are kept in.
    ``records``: a :class:`~dragonsim.records.RecordsFile` that gets every game's row
    (:data:`~dragonsim.lords.results.DUEL_COLUMNS` and ``context``'s constant columns).
    ``backend``, ``dask_client``: as for :func:`~dragonsim.runner.run_blocks` (on ``"dask"``
    each block sends its games' winners back with its counters; no records).
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
        compiled=E.play_chunks,
        game="Dragon Lords",
        label=f"games {prep['a'].name}-{prep['b'].name}",
    )
    if runrec is not None:
        runrec.finish(out.n)
    if out.interrupted and interrupted is not None:
        interrupted.append(True)
    return np.frombuffer(out.extra, dtype=np.int8)[: out.n].copy()


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
) -> Pilot:
    """Play ``a`` and ``b`` against ``against`` on games ``0..n-1`` of ``seed`` and measure the
    correlation of their wins (a draw is not a win), the variance reduction a paired study of
    the two builds gets (:func:`dragonsim.stats.sample_size`)."""
    from ..game.sheets import sheet
    from ..inputs import _rules

    n = parse_count(n, "pilot games")
    if n < 10:
        raise UserError(f"a pilot needs at least 10 games to estimate a correlation, got {n}")
    rs = _rules(rules)
    x = outcomes(a, against, n=n, seed=seed, policies=policies, rules=rs, progress=progress)
    y = outcomes(b, against, n=n, seed=seed, policies=policies, rules=rs, progress=progress)
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
    n: int | None = None,
    precision: float | None = None,
    max_n: int | None = None,
    seed: int = 1,
    policies: Sequence[str] = ("hunter", "hunter"),
    confidence: float = 0.95,
    rules=None,
    progress: bool | None = False,
    checkpoint=None,
    records=None,
    backend: str = "local",
    dask_client=None,
):
    """``a``'s win rate for each value of one rule, paired against the rule's value in force.

    ``rule`` is any overridable key (``altitude_mod``, ``damage_allocation.7``, ...); values
    are checked like any override. ``rules`` (a RuleSet or overrides) is the game the sweep
    starts from (default: the rules as printed and assumed); each value is applied on top of
    it. Returns a pandas DataFrame, one row per value. An interruption keeps the values that
    finished (``df.attrs["interrupted"]`` is True); ``checkpoint`` (a path) keeps every finished
    block, and the same call resumes from it. ``records`` (a ``.parquet`` or ``.csv`` path):
    one row per game and value (:data:`SENSITIVITY_COLUMNS` then the duel's), the games under
    the value in force first.

    ``precision``, ``max_n``: instead of ``n``, play every value and the value in force on the
    same games, look after every block of :func:`~dragonsim.stats.precision_schedule`, and
    stop at the first look where every value's win rate (and the value in force's) has a 95%
    confidence-sequence interval (:func:`~dragonsim.stats.sequence_interval`: Clopper-Pearson
    at ``1 - 0.05 / K`` at each of ``K`` planned looks, the duel's rule) of half-width at most
    ``precision``; ``ci_low`` / ``ci_high`` are then those intervals, valid however the stop
    fell. The paired difference keeps its fixed-n normal interval (it is not a rate the
    target bounds). ``df.attrs["n"]`` is the games each value needed and
    ``df.attrs["precision"]`` how the run went. Not with ``checkpoint`` or ``records``.

    ``backend``, ``dask_client``: where the blocks run, as for
    :func:`~dragonsim.runner.run_blocks`; the result is the same on any.
    """
    import pandas as pd

    from ...report import manifest
    from ..inputs import _rules

    if not isinstance(rule, str) or not rule.strip():
        raise UserError(f"rule must be a rule key such as altitude_mod, got {rule!r}")
    if isinstance(values, str | bytes | Mapping) or not isinstance(values, Sequence):
        raise UserError(f"values must be a list of rule values, got {values!r}")
    if not 1 <= len(values) <= MAX_VALUES:
        raise UserError(f"sensitivity needs 1 to {MAX_VALUES} values, got {len(values)}")
    from ...runner import n_or_precision

    n, cap = n_or_precision(n, precision, max_n)
    if precision is not None and (checkpoint is not None or records is not None):
        raise UserError(
            "checkpoints and records are not supported with a precision target; give n instead"
        )
    key = rule if rule.startswith("lords.") else f"lords.{rule}"
    start = _rules(rules)
    default = start.get(key)
    for v in values:  # refuse a bad value before any game is played
        start.with_overrides({key: v})
    if precision is not None:
        return _sensitivity_to_precision(
            a,
            b,
            key,
            values,
            start,
            default,
            float(precision),
            cap,
            seed,
            policies,
            progress,
            backend,
            dask_client,
        )
    ck = _checkpoint(
        checkpoint,
        {
            "command": "sensitivity",
            "a": str(a),
            "b": str(b),
            "rule": key,
            "values": [json.dumps(v) for v in values],
            "policies": list(policies) if not isinstance(policies, str) else policies,
            "seed": seed,
            "n": n,
            "rules_hash": start.hash,
        },
    )
    stopped: list = []
    file = None
    if records is not None:
        from ...records import RecordsFile, check_path
        from ..inputs import resolve_policies
        from ..results import DUEL_COLUMNS, records_manifest

        check_path(records)
        file = RecordsFile(
            records,
            records_manifest(
                command="sensitivity",
                a=str(a),
                b=str(b),
                rule=key,
                values=[json.dumps(v) for v in values],
                default=json.dumps(default),
                policies=list(resolve_policies(None, policies)),
                seed=seed,
                n=n,
                rules_hash=start.hash,
                rules_overrides=start.overrides,
                options=rule_switches(start),
            ),
            SENSITIVITY_COLUMNS | DUEL_COLUMNS,
        )

    def play(name: str, rs, value) -> np.ndarray | None:
        w = outcomes(
            a,
            b,
            n=n,
            seed=seed,
            policies=policies,
            rules=rs,
            progress=progress,
            checkpoint=None if ck is None else ck.section(name),
            interrupted=stopped,
            records=file,
            context={"value": json.dumps(value), "is_base": name == "default"},
            backend=backend,
            dask_client=dask_client,
        )
        return None if stopped else w == 0

    rows = []
    base = None
    try:
        base = play("default", start, default)
        for i, v in enumerate(values):
            if base is None:
                break
            alt = play(f"value {i}", start.with_overrides({key: v}), v)
            if alt is None:
                break
            rows.append(_sensitivity_row(key, v, default, paired(base, alt, confidence)))
    except KeyboardInterrupt:
        if not rows:
            raise
        stopped.append(True)
    finally:
        if file is not None:
            file.close(values_finished=len(rows), interrupted=bool(stopped))
    df = pd.DataFrame(rows)
    df.attrs.update(
        rule=key,
        interrupted=bool(stopped),
        values_requested=len(values),
        manifest=manifest(
            command="sensitivity",
            rule=key,
            rules_hash=start.hash,
            rules_overrides=start.overrides,
            options=rule_switches(start),
            seed=seed,
            n=n,
            interrupted=bool(stopped),
        ),
        n=n,
        precision=None,
        precision_run=None,
    )
    return df


def _sensitivity_row(key: str, v, default, r: PairedResult, ci=None) -> dict[str, Any]:
    """One value's row of a sensitivity study; ``ci``: the win rate's interval when it is not
    the paired result's Wilson interval (a precision run's confidence sequence)."""
    lo, hi = r.alt.ci if ci is None else ci
    return {
        "rule": key,
        "value": json.dumps(v),
        "is_default": v == default,
        "win_rate_a": r.alt.rate,
        "ci_low": lo,
        "ci_high": hi,
        "difference": r.difference,
        "diff_low": r.ci[0],
        "diff_high": r.ci[1],
        "mcnemar_p": r.pvalue,
        "variance_reduction": r.variance_reduction,
    }


def _sensitivity_to_precision(
    a,
    b,
    key,
    values,
    start,
    default,
    precision,
    cap,
    seed,
    policies,
    progress,
    backend="local",
    dask_client=None,
):
    """:func:`sensitivity` with a precision target: every configuration (the value in force,
    then each value) extends its games look by look on the same game indices, until every
    win rate's confidence-sequence half-width is within ``precision``."""
    import pandas as pd

    from ...report import manifest
    from ...runner import PrecisionRun
    from ...stats import half_width, precision_schedule, sequence_interval

    looks = precision_schedule(precision, cap)
    configs = [start] + [start.with_overrides({key: v}) for v in values]
    wins: list[np.ndarray] = [np.zeros(0, dtype=bool) for _ in configs]
    stopped: list = []
    done, taken, widest = 0, 0, 1.0
    for look, n_k in enumerate(looks, start=1):
        taken = look
        try:
            for c, rs in enumerate(configs):
                w = outcomes(
                    a,
                    b,
                    n=n_k - done,
                    seed=seed,
                    policies=policies,
                    rules=rs,
                    progress=progress,
                    interrupted=stopped,
                    first=done,
                    backend=backend,
                    dask_client=dask_client,
                )
                wins[c] = np.concatenate([wins[c], w == 0])
                if stopped:
                    break
        except KeyboardInterrupt:
            stopped.append(True)
        if stopped:  # keep the games every configuration finished
            done = min(len(w) for w in wins)
            wins = [w[:done] for w in wins]
            break
        done = n_k
        widest = max(half_width(*sequence_interval(int(w.sum()), done, len(looks))) for w in wins)
        if widest <= precision:
            break
    if done == 0:
        raise KeyboardInterrupt
    prun = PrecisionRun(
        precision,
        0.95,
        int(cap),
        looks,
        taken,
        widest <= precision and not stopped,
        float(widest),
    )
    if not prun.met and not stopped:
        from ...runner import _note

        _note(
            f"precision target +-{precision:g} not reached in {cap:,} games (widest half-width "
            f"{widest:.3g}); raise the cap (max_n, --max-n) or loosen the target"
        )
    rows = [
        _sensitivity_row(
            key,
            v,
            default,
            paired(wins[0], wins[c + 1]),
            sequence_interval(int(wins[c + 1].sum()), done, len(looks)),
        )
        for c, v in enumerate(values)
    ]
    df = pd.DataFrame(rows)
    df.attrs.update(
        rule=key,
        interrupted=bool(stopped),
        values_requested=len(values),
        n=done,
        precision=prun.to_dict(),
        precision_run=prun,
        manifest=manifest(
            command="sensitivity",
            rule=key,
            rules_hash=start.hash,
            rules_overrides=start.overrides,
            options=rule_switches(start),
            seed=seed,
            n=done,
            precision=prun.to_dict(),
            interrupted=bool(stopped),
        ),
    )
    return df


def _checkpoint(checkpoint, identity) -> Checkpoint | None:
    """A study's checkpoint (one section per kernel run), from a path or a Checkpoint."""
    if checkpoint is None or isinstance(checkpoint, Checkpoint):
        return checkpoint
    return Checkpoint(checkpoint, identity)


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
    interrupted: bool = False
    pairs_done: int | None = None
    pairs: int | None = None
    #: games each finished pair played, keyed ``(a, b)`` (a precision run's differ by pair)
    n_pairs: dict[tuple[str, str], int] = field(default_factory=dict)
    #: how a ``precision=`` run went (:class:`~dragonsim.runner.PrecisionRun`), else None
    precision: Any = None

    @property
    def requested(self) -> int | None:
        return self.pairs

    @property
    def finished(self) -> int | None:
        return self.pairs_done

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
            "interrupted": self.interrupted,
            "pairs_done": self.pairs_done,
            "pairs": self.pairs,
            "n_pairs": [{"a": a, "b": b, "n": m} for (a, b), m in self.n_pairs.items()],
            "precision": None if self.precision is None else self.precision.to_dict(),
            "manifest": self.manifest,
        }

    def matrix_text(self, digits: int = 3) -> str:
        """:meth:`matrix` as text, saying which way it reads, with a dash on the diagonal (a
        dragon does not play itself) and on any pair that was not played."""
        m = self.matrix()
        names = list(m.index)
        w = max(8, *(len(x) for x in names)) if names else 8
        cw = max(digits + 3, *(len(x) for x in names)) if names else digits + 3
        lines = [
            f"P(row beats column): the row dragon's share of their "
            f"{'games' if self.precision is not None else f'{self.n:,} games'}, draws "
            "counted half",
            f"  {'':<{w}} " + " ".join(f"{c:>{cw}}" for c in names),
        ]
        for r in names:
            cells = []
            for c in names:
                v = m.loc[r, c]
                cells.append(f"{'-':>{cw}}" if v != v else f"{v:>{cw}.{digits}f}")
            lines.append(f"  {r:<{w}} " + " ".join(cells))
        return "\n".join(lines)

    def summary(self) -> str:
        games = f"{self.n:,} games per pair"
        if self.precision is not None and self.n_pairs:
            few, most = min(self.n_pairs.values()), max(self.n_pairs.values())
            games = f"{few:,} to {most:,} games per pair (a precision run)"
        lines = [
            f"Dragon Lords round robin, {games}, bot {self.policy}, seed {self.seed}",
            *(
                [
                    self.precision.line().replace("every rate", "every pair's win share")
                    + " (the pair that needed the most)"
                ]
                if self.precision is not None
                else []
            ),
            *(
                [
                    f"  INTERRUPTED: {self.pairs_done} of {self.pairs} pairs finished; the "
                    "ratings and the matrix are from those pairs only"
                ]
                if self.interrupted
                else []
            ),
            "  rating: Bradley-Terry strength in log-odds, centred at 0 (a difference of 1 "
            "means odds of e = 2.7 to 1);",
            "  win share: share of its games won, draws counted half",
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


def tournament(
    dragons: Sequence,
    *,
    n: int | None = None,
    precision: float | None = None,
    max_n: int | None = None,
    seed: int = 1,
    policy: str = "hunter",
    rules=None,
    progress: bool | None = False,
    checkpoint=None,
    records=None,
    backend: str = "local",
    dask_client=None,
    spells: str = "bot",
):
    """Round robin: every pair plays ``n`` games (each side first-listed in half of them).

    Draws count half a win to each. Returns Bradley-Terry ratings (log scale, centred) with
    intervals, the win matrix and any significant non-transitive cycles (Holm, 5%).
    ``rules``: a RuleSet or overrides (default: the rules as printed and assumed). An
    interruption keeps the pairs that finished (``interrupted`` is True, ``pairs_done`` of
    ``pairs``); ``checkpoint`` (a path) keeps every finished block, and the same call resumes.
    ``records`` (a ``.parquet`` or ``.csv`` path): one row per game
    (:data:`TOURNAMENT_COLUMNS` then the duel's), pair by pair.

    ``precision``, ``max_n``: instead of ``n``, each pair plays until the 95% interval of its
    win share (the matrix's P(row beats column), draws half) is within +-``precision``,
    looking at the game counts of :func:`~dragonsim.stats.precision_schedule` (the duel's
    schedule; a pair stopped at ``m`` games has exactly the games of a fixed ``n = m`` run).
    The share's interval is :func:`~dragonsim.stats.share_interval`: the confidence-sequence
    intervals of the first dragon's wins and the second's, each at ``1 - 0.025 / K`` over the
    ``K`` planned looks, so it covers at 95% however the stop fell; every dragon's overall win
    share (a mean of its pairs') is then within the target too. ``n_pairs`` holds the games
    each pair needed, ``n`` the most of them. The ratings keep their fixed-n Fisher
    intervals (log-odds, not rates). Not with ``checkpoint`` or ``records``.

    ``backend``, ``dask_client``: where the blocks run (``"dask"`` with a
    ``distributed.Client``: blocks as tasks on its workers), as for
    :func:`~dragonsim.runner.run_blocks`; the result is the same on any.

    ``spells``: the Wizards' spell policy under the Wizard (``"bot"``, ``"never"``,
    ``"random"``; :func:`~dragonsim.lords.api.duel`).
    """
    from ...report import manifest
    from ...runner import n_or_precision
    from ..game.sheets import sheet
    from ..inputs import _rules, check_spells, resolve_policies

    n, cap = n_or_precision(n, precision, max_n)
    if precision is not None and (checkpoint is not None or records is not None):
        raise UserError(
            "checkpoints and records are not supported with a precision target; give n instead"
        )
    check_spells(spells)
    if isinstance(dragons, str) or not isinstance(dragons, Sequence):
        raise UserError(f"dragons must be a list of two or more dragons, got {dragons!r}")
    if not 2 <= len(dragons) <= MAX_ENTRANTS:
        raise UserError(f"a tournament needs 2 to {MAX_ENTRANTS} dragons, got {len(dragons)}")
    rs = _rules(rules)
    sheets = [sheet(d, rules=rs) for d in dragons]
    names = [s.name for s in sheets]
    if len(set(names)) != len(names) or len(names) < 2:
        raise UserError(f"a tournament needs at least two different dragons, got {names}")
    pols = resolve_policies(policy)
    if backend == "dask" and records is not None:
        raise UserError(
            "records are written by the local backend only; drop records= or use backend='local'"
        )
    ck = _checkpoint(
        checkpoint,
        {
            "command": "tournament",
            "dragons": names,
            "policy": policy,
            "seed": seed,
            "n": n,
            "rules_hash": rs.hash,
            **({} if spells == "bot" else {"spells": spells}),
        },
    )
    file = None
    current: list = []
    if records is not None:
        from ...records import RecordsFile, check_path
        from ..api import _kernel_with_records
        from ..bots import policy_version
        from ..results import DUEL_COLUMNS, records_manifest

        check_path(records)
        file = RecordsFile(
            records,
            records_manifest(
                command="tournament",
                dragons=[s.to_dict() for s in sheets],
                policy=policy_version(pols[0]),
                seed=seed,
                n_per_pair=n,
                rules_hash=rs.hash,
                rules_overrides=rs.overrides,
                options=rule_switches(rs),
            ),
            TOURNAMENT_COLUMNS | DUEL_COLUMNS,
        )
        kernel = _kernel_with_records(current)
    else:
        kernel = _duel_counts
    k = len(sheets)
    wins = np.zeros((k, k))
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    done = 0
    interrupted = False
    looks = None
    if precision is not None:
        from ...stats import half_width, precision_schedule, share_interval

        looks = precision_schedule(float(precision), cap)
    n_pairs = np.zeros(len(pairs), dtype=np.int64)
    widest = np.zeros(len(pairs))
    taken = np.zeros(len(pairs), dtype=np.int64)
    for q, (i, j) in enumerate(pairs):
        got = np.zeros((k, k))
        strict = np.zeros(2, dtype=np.int64)  # the pair's wins of i and of j, no draws
        sched = [n] if looks is None else looks
        played = 0
        try:
            for look, n_k in enumerate(sched, start=1):
                _play_pair(
                    got,
                    strict,
                    i,
                    j,
                    played,
                    n_k,
                    seed,
                    sheets,
                    names,
                    pols,
                    rs,
                    ck,
                    file,
                    current,
                    kernel,
                    progress,
                    backend,
                    dask_client,
                    spells,
                )
                played = n_k
                taken[q] = look
                if looks is not None:
                    lo, hi = share_interval(strict[0], strict[1], n_k, len(looks))
                    widest[q] = half_width(lo, hi)
                    if widest[q] <= precision:
                        break
        except KeyboardInterrupt:
            if done == 0:
                if file is not None:
                    file.close(pairs_finished=0, interrupted=True)
                raise
            interrupted = True
            break
        wins += got
        n_pairs[q] = played
        done += 1
    if file is not None:
        file.close(pairs_finished=done, pairs=len(pairs), interrupted=interrupted)
    prun = None
    if looks is not None:
        from ...runner import PrecisionRun, _note

        w = float(widest[:done].max()) if done else 1.0
        prun = PrecisionRun(
            float(precision),
            0.95,
            int(cap),
            looks,
            int(taken[:done].max(initial=0)),
            w <= precision and not interrupted,
            w,
        )
        if not prun.met and not interrupted:
            _note(
                f"precision target +-{precision:g} not reached in {cap:,} games a pair "
                f"(widest half-width {w:.3g}); raise the cap (max_n, --max-n) or loosen it"
            )
        n = int(n_pairs[:done].max(initial=0))
    # ratings from the finished pairs (an unplayed pair adds nothing to the likelihood)
    played_d = sorted({d for p in pairs[:done] for d in p})
    sub = wins[np.ix_(played_d, played_d)]
    sub_names = [names[d] for d in played_d]
    ratings = bradley_terry(sub, sub_names)
    return TournamentResult(
        sub_names,
        n,
        seed,
        policy,
        sub,
        ratings,
        nontransitive_cycles(sub, sub_names),
        manifest(
            command="tournament",
            rules_hash=rs.hash,
            rules_overrides=rs.overrides,
            options=rule_switches(rs),
            seed=seed,
            n_per_pair=n,
            policy=policy,
            spells=spells,
            precision=None if prun is None else prun.to_dict(),
            interrupted=interrupted,
        ),
        interrupted=interrupted,
        pairs_done=done,
        pairs=len(pairs),
        n_pairs={
            (names[i], names[j]): int(m)
            for (i, j), m in zip(pairs[:done], n_pairs[:done], strict=True)
        },
        precision=prun,
    )


def _play_pair(
    got,
    strict,
    i,
    j,
    start,
    stop,
    seed,
    sheets,
    names,
    pols,
    rs,
    ck,
    file,
    current,
    kernel,
    progress,
    backend="local",
    dask_client=None,
    spells="bot",
):
    """Add games ``start..stop-1`` of pair ``(i, j)`` to ``got`` (draws half) and their wins
    (no draws) to ``strict`` (``[i's, j's]``): the first
    ``stop - stop // 2`` with ``i`` listed first on ``seed``, the other ``stop // 2`` with
    ``j`` first on ``seed + 1`` (a run extended look by look plays the games a fixed ``n =
    stop`` run plays). Raises KeyboardInterrupt when a block was interrupted."""
    from ...runner import run_blocks
    from ..inputs import prepare
    from ..results import record_columns

    for first, second, lo, hi, s in (
        (i, j, start - start // 2, stop - stop // 2, seed),
        (j, i, start // 2, stop // 2, seed + 1),
    ):
        m = hi - lo
        if m == 0:
            continue
        prep = prepare(sheets[first], sheets[second], policies=pols, rules=rs, spells=spells)
        sec = None if ck is None else ck.section(f"{first}-{second}")
        on_block, runrec = None, None
        if file is not None:
            pair = (names[first], names[second])
            runrec = file.run(sec, {"a": pair[0], "b": pair[1], "seed": s})

            def on_block(a_, b_, part, runrec=runrec, pair=pair):
                runrec.block(a_, b_, record_columns(current[0], a_, pair, True))

        out = run_blocks(
            kernel,
            m,
            s,
            prep["args"],
            first=lo,
            progress=progress,
            on_block=on_block,
            checkpoint=sec,
            compiled=E.play_chunks,
            game="Dragon Lords",
            label=f"games {names[first]}-{names[second]}",
            backend=backend,
            dask_client=dask_client,
        )
        if runrec is not None:
            runrec.finish(out.n)
        if out.interrupted:
            raise KeyboardInterrupt
        c = out.counters
        w0, w1, dr = int(c[S.C_WIN]), int(c[S.C_WIN + 1]), int(c[S.C_DRAWS])
        got[first, second] += w0 + 0.5 * dr
        got[second, first] += w1 + 0.5 * dr
        strict[0 if first == i else 1] += w0
        strict[1 if first == i else 0] += w1


def _duel_counts(start, stop, seed, *args):
    """The duel kernel's counters, no records (a tournament needs only wins and draws)."""
    return E.duel_kernel(start, stop, seed, *args, _NO_RECORDS)


_NO_RECORDS = np.zeros((0, S.N_REC), dtype=np.int64)


def _winners_block(start, stop, seed, *args):
    """The duel kernel's counters and each game's winner (int8 bytes: 0, 1, -1 a draw), for
    :func:`outcomes` on a Dask worker, where no ``on_block`` can read a side channel."""
    rec = np.zeros((stop - start, S.N_REC), dtype=np.int64)
    counters = E.duel_kernel(start, stop, seed, *args, rec)
    return counters, rec[:, S.R_WINNER].astype(np.int8).tobytes()
