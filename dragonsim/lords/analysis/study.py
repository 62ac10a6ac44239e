"""Balance studies on Dragon Lords duels: the round robin (:func:`tournament`, Bradley-Terry
ratings with intervals, flagging non-transitive cycles) here; paired comparisons
(:func:`outcomes`, :func:`compare`, :func:`pilot`) in :mod:`~dragonsim.lords.analysis.paired`
and rule sensitivity (:func:`sensitivity`) in :mod:`~dragonsim.lords.analysis.rulesweep`,
both importable from here.

Examples
--------
>>> from dragonsim.lords.analysis.study import sensitivity
>>> df = sensitivity("Reaper", "Skyblazer", rule="altitude_mod",
...                  values=[[0, 0, 1, 1, 2], [0, 1, 1, 2, 2]], n=2000)  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...checkpoint import Checkpoint
from ...errors import UserError
from ...stats import bradley_terry, nontransitive_cycles
from .. import engine as E
from ..game import state as S
from ..game.sheets import rule_switches
from .designs import short_label
from .paired import _checkpoint, compare, outcomes, paired, pilot
from .rulesweep import sensitivity

__all__ = [
    "tournament",
    "TournamentResult",
    # reached as dragonsim.lords.analysis.study.X by the tests, notebooks and docs
    "outcomes",
    "compare",
    "paired",
    "pilot",
    "sensitivity",
]

#: the columns a tournament's records add to a duel's (``records=``)
TOURNAMENT_COLUMNS = {
    "a": "the dragon listed first in these games (side 0: winner_side 0 is a win for it)",
    "b": "the dragon listed second (side 1)",
    "seed": "the seed of these games (each pair plays the second half of its games with the "
    "other dragon listed first, on the next seed)",
}

#: most dragons in one round robin
MAX_ENTRANTS = 32


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
        dragon does not play itself) and on any pair that was not played. Names longer than
        :data:`COLUMN` head their columns by number (the rows say which is which), so an
        inline design's long name does not stretch every column."""
        m = self.matrix()
        names = [short_label(x) for x in m.index]
        numbered = any(len(x) > COLUMN for x in names)
        heads = [f"({k + 1})" for k in range(len(names))] if numbered else names
        rows = [f"({k + 1}) {x}" for k, x in enumerate(names)] if numbered else names
        w = max(8, *(len(x) for x in rows)) if rows else 8
        cw = max(digits + 3, *(len(x) for x in heads)) if heads else digits + 3
        lines = [
            f"P(row beats column): the row dragon's share of their "
            f"{'games' if self.precision is not None else f'{self.n:,} games'}, draws "
            "counted half",
            f"  {'':<{w}} " + " ".join(f"{c:>{cw}}" for c in heads),
        ]
        for r, label in zip(m.index, rows, strict=True):
            cells = []
            for c in m.columns:
                v = m.loc[r, c]
                cells.append(f"{'-':>{cw}}" if v != v else f"{v:>{cw}.{digits}f}")
            lines.append(f"  {label:<{w}} " + " ".join(cells))
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
        ]
        w = max(14, *(len(short_label(x)) for x in self.ratings["name"]))
        lines.append(f"  {'dragon':<{w}} {'rating':>7}  {'95% interval':>17}  {'win share':>9}")
        for _, r in self.ratings.iterrows():
            lines.append(
                f"  {short_label(r['name']):<{w}} {r['rating']:+7.3f}  [{r['lo']:+7.3f}, "
                f"{r['hi']:+7.3f}]  {r['wins'] / max(r['games'], 1):9.3f}"
            )
        lines.append(
            "  non-transitive cycles: "
            + (
                ", ".join(
                    " > ".join(map(short_label, c)) + " > " + short_label(c[0]) for c in self.cycles
                )
                or "none"
            )
        )
        return "\n".join(lines)


#: names longer than this head a matrix column by number
COLUMN = 12


def tournament(
    dragons: Sequence,
    *,
    n: int | None = None,
    precision: float | None = None,
    max_n: int | None = None,
    simultaneous: bool = False,
    seed: int = 1,
    policy: str = "hunter",
    rules=None,
    progress: bool | None = False,
    checkpoint=None,
    records=None,
    backend: str = "local",
    dask_client=None,
    spells: str = "bot",
    threads: int | None = None,
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
    looking at the game counts of :func:`~dragonsim.stats.precision_plan` (made with
    ``parts=2``, fixed before any game; a pair stopped at ``m`` games has exactly the games
    of a fixed ``n = m`` run). The share's interval is
    :func:`~dragonsim.stats.share_interval` at the plan's level for the look: the
    Clopper-Pearson intervals of the first dragon's wins and the second's, each at half its
    error, so it covers at 95% however the stop fell; every dragon's overall win share (a
    mean of its pairs') is then within the target too. ``simultaneous``: every pair's share
    covered at once (the error split over the pairs); by default each pair's on its own.
    ``n_pairs`` holds the games each pair needed, ``n`` the most of them. The ratings keep
    their fixed-n Fisher intervals (log-odds, not rates). Not with ``checkpoint`` or
    ``records``.

    ``backend``, ``dask_client``: where the blocks run (``"dask"`` with a
    ``distributed.Client``: blocks as tasks on its workers), as for
    :func:`~dragonsim.runner.run_blocks`; the result is the same on any.

    ``spells``: the Wizards' spell policy under the Wizard (``"bot"``, ``"never"``,
    ``"random"``; :func:`~dragonsim.lords.api.duel`). ``threads``: numba threads (default all
    cores); the result does not depend on it.
    """
    from ...runner import n_or_precision
    from ..inputs import check_spells, resolve_policies

    n, cap = n_or_precision(n, precision, max_n, simultaneous=simultaneous)
    if precision is not None and (checkpoint is not None or records is not None):
        raise UserError(
            "checkpoints and records are not supported with a precision target; give n instead"
        )
    check_spells(spells)
    rs, sheets, names = _entrants(dragons, rules)
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
        from ..api import _kernel_with_records

        file = _tournament_records(records, sheets, pols, seed, n, rs)
        kernel = _kernel_with_records(current)
    else:
        kernel = _duel_counts

    games = _Games(
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
        threads,
    )
    k = len(sheets)
    wins = np.zeros((k, k))
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    done = 0
    interrupted = False
    plan = None
    if precision is not None:
        from ...stats import precision_plan

        at_once = len(pairs) if simultaneous else 1
        plan = precision_plan(float(precision), cap, rates=at_once, parts=2)
    n_pairs = np.zeros(len(pairs), dtype=np.int64)
    widest = np.zeros(len(pairs))
    taken = np.zeros(len(pairs), dtype=np.int64)
    for q, (i, j) in enumerate(pairs):
        got = np.zeros((k, k))
        strict = np.zeros(2, dtype=np.int64)  # the pair's wins of i and of j, no draws
        try:
            played, taken[q], widest[q] = _pair_to_look(games, got, strict, i, j, n, plan)
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
    if plan is not None:
        prun = _precision_run(plan, widest[:done], taken[:done], interrupted)
        n = int(n_pairs[:done].max(initial=0))
    return _tournament_result(
        wins, pairs, done, n_pairs, names, n, seed, policy, spells, rs, prun, interrupted
    )


def _entrants(dragons, rules):
    """A round robin's rules and its dragons' sheets and names, checked: 2..MAX_ENTRANTS
    different dragons."""
    from ..game.sheets import sheet
    from ..inputs import _rules

    if isinstance(dragons, str) or not isinstance(dragons, Sequence):
        raise UserError(f"dragons must be a list of two or more dragons, got {dragons!r}")
    if not 2 <= len(dragons) <= MAX_ENTRANTS:
        raise UserError(f"a tournament needs 2 to {MAX_ENTRANTS} dragons, got {len(dragons)}")
    rs = _rules(rules)
    sheets = [sheet(d, rules=rs) for d in dragons]
    names = [s.name for s in sheets]
    if len(set(names)) != len(names) or len(names) < 2:
        raise UserError(f"a tournament needs at least two different dragons, got {names}")
    return rs, sheets, names


def _tournament_records(records, sheets, pols, seed, n, rs):
    """A round robin's records file (:data:`TOURNAMENT_COLUMNS` then the duel's), its manifest
    written before the games."""
    from ...records import RecordsFile, check_path
    from ..bots import policy_version
    from ..results import DUEL_COLUMNS, records_manifest

    check_path(records)
    return RecordsFile(
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


def _pair_to_look(games, got, strict, i, j, n, plan):
    """Play pair ``(i, j)`` of the round robin ``games`` (:func:`_play_pair`): ``n`` games,
    or with ``plan`` (a :class:`~dragonsim.stats.LookPlan`) look by look until its win
    share's interval (:func:`~dragonsim.stats.share_interval` at the look's level) is within
    the plan's target. Returns ``(games played, looks taken, the interval's half-width)`` (0
    without a plan)."""
    from ...stats import half_width, share_interval

    played, taken, widest = 0, 0, 0.0
    for look, n_k in enumerate([n] if plan is None else plan.looks, start=1):
        _play_pair(got, strict, i, j, played, n_k, games)
        played = n_k
        taken = look
        if plan is not None:
            lo, hi = share_interval(strict[0], strict[1], n_k, confidence=plan.level(n_k))
            widest = half_width(lo, hi)
            if widest <= plan.target:
                break
    return played, taken, widest


def _precision_run(plan, widest, taken, interrupted):
    """How a round robin to a precision target went (:class:`~dragonsim.runner.PrecisionRun`,
    from its plan and the finished pairs' half-widths and looks); says so when the target was
    missed."""
    from ...runner import PrecisionRun, _note

    w = float(widest.max()) if len(widest) else 1.0
    prun = PrecisionRun(plan, int(taken.max(initial=0)), w <= plan.target and not interrupted, w)
    if not prun.met and not interrupted:
        precision, cap = plan.target, plan.cap
        _note(
            f"precision target +-{precision:g} not reached in {cap:,} games a pair "
            f"(widest half-width {w:.3g}); raise the cap (max_n, --max-n) or loosen it"
        )
    return prun


def _tournament_result(
    wins, pairs, done, n_pairs, names, n, seed, policy, spells, rs, prun, interrupted
) -> TournamentResult:
    """The :class:`TournamentResult` of the finished pairs: ratings from them only (an unplayed
    pair adds nothing to the likelihood)."""
    from ...report import manifest

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


@dataclass(frozen=True)
class _Games:
    """What every pair of a round robin plays with: the seed, the entrants (sheets and names),
    the bots and rules, the checkpoint, the records file with the rows the kernel caller keeps
    (``current``), the kernel, and where and how the blocks run (``threads``: None, all
    cores)."""

    seed: int
    sheets: list
    names: list[str]
    pols: tuple[str, str]
    rs: Any
    ck: Checkpoint | None
    file: Any
    current: list
    kernel: Any
    progress: bool | None
    backend: str
    dask_client: Any
    spells: str
    threads: int | None = None


def _play_pair(got, strict, i, j, start, stop, g: _Games) -> None:
    """Add games ``start..stop-1`` of pair ``(i, j)`` to ``got`` (draws half) and their wins
    (no draws) to ``strict`` (``[i's, j's]``): the first
    ``stop - stop // 2`` with ``i`` listed first on ``g.seed``, the other ``stop // 2`` with
    ``j`` first on ``g.seed + 1`` (a run extended look by look plays the games a fixed ``n =
    stop`` run plays). Raises KeyboardInterrupt when a block was interrupted."""
    from ...runner import run_blocks
    from ..inputs import prepare
    from ..results import record_columns

    for first, second, lo, hi, s in (
        (i, j, start - start // 2, stop - stop // 2, g.seed),
        (j, i, start // 2, stop // 2, g.seed + 1),
    ):
        m = hi - lo
        if m == 0:
            continue
        prep = prepare(
            g.sheets[first], g.sheets[second], policies=g.pols, rules=g.rs, spells=g.spells
        )
        sec = None if g.ck is None else g.ck.section(f"{first}-{second}")
        on_block, runrec = None, None
        if g.file is not None:
            pair = (g.names[first], g.names[second])
            runrec = g.file.run(sec, {"a": pair[0], "b": pair[1], "seed": s})

            def on_block(a_, b_, part, runrec=runrec, pair=pair):
                runrec.block(a_, b_, record_columns(g.current[0], a_, pair, True))

        out = run_blocks(
            g.kernel,
            m,
            s,
            prep["args"],
            first=lo,
            progress=g.progress,
            on_block=on_block,
            checkpoint=sec,
            compiled=E.play_chunks,
            game="Dragon Lords",
            label=f"games {g.names[first]}-{g.names[second]}",
            backend=g.backend,
            dask_client=g.dask_client,
            threads=g.threads,
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
