"""Styles at equilibrium: both sides of a duel choose how to fly, and the matchup is worth the
value of that choice.

A duel under one bot judges a build flown one way against an opponent flown the same way. But
the rulebook leaves every decision to the player, and the planning bots fly three ways
(:mod:`dragonsim.lords.bots`): ``hunter`` (trade breath fire at the best expected exchange),
``brawler`` (close in and engage) and ``sniper`` (keep range 3-5, never engage), and a dragon a
Wizard rides may also hold back its Wizard's spells (:data:`CASTER_STYLES`). Which way
suits a dragon depends on the dragon it meets, so :func:`equilibrium_duel` lets both sides
choose: it plays every style of A against every style of B and solves the zero-sum game of
that matrix. Its value is A's win share (draws count half) when A flies the mixture of styles
that suits it best against the mixture that answers it best; neither side gains by changing
its mixture alone. A build is then judged flown the way that suits it, against the answer that
suits its opponent.

* **Common random numbers.** Every cell plays games ``0..n-1`` of the same seed under the same
  rules, so the cells share each game's random streams (:mod:`dragonsim.random`, as the paired
  comparisons of :mod:`~dragonsim.lords.analysis.paired` do): a difference between two cells is
  the styles', not the dice's. Each cell is exactly the plain duel
  ``duel(a, b, policies=(s, t), seed=seed, n=n)``, counter for counter.
* **The solution.** Two linear programs (``scipy.optimize.linprog``), as the close-combat
  tactics' secret simultaneous choice (optional rules, p.22) is solved by
  :func:`dragonsim.lords.game.odds.tactics`.
* **The numbers at equilibrium.** A's and B's win rates, the draw rate, the game length, the
  damage and the events per game are the cells' weighted by both mixtures (the weight of a cell
  is ``x_i * y_j``): what a duel of the two mixed players would report on average.
* **The value's standard error** holds the mixtures fixed: ``sqrt(sum (x_i y_j)^2 se_ij^2)``,
  ``se_ij`` the cell's own (a game scores 1, 1/2 or 0). It ignores the mixtures' own estimation
  noise (other cells' noise can move the solution) and treats the cells as independent, where
  common random numbers correlate them (usually positively, so it tends to be too small when
  the mixtures are spread; ``sum x_i y_j se_ij`` bounds it whatever the correlation).

:func:`styles_for` is the one place that says which styles a dragon chooses among.

Examples
--------
>>> r = equilibrium_duel("Reaper", "Skyblazer", n=2000, progress=False)  # doctest: +SKIP
>>> abs(sum(r.mixture_a) - 1) < 1e-9  # doctest: +SKIP
True
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any, NamedTuple

import numpy as np

from ... import defaults
from ...errors import UserError, parse_count

__all__ = [
    "STYLES",
    "styles_for",
    "solve_zero_sum",
    "ZeroSumSolution",
    "cell_share",
    "equilibrium_duel",
    "EquilibriumResult",
]

#: the styles every dragon chooses among: the planning bots, plain names (the newest released
#: version of each; results and manifests name the versions, ``hunter-5``)
STYLES = ("hunter", "brawler", "sniper")
#: a Wizard's dragon's styles besides (advanced rules, pp. 18, 24-25): the hunter whose Wizard
#: leaves out the next-turn spells (hunter-4's caster), and the hunter whose Wizard keeps
#: its magic points (never casts); both are the default bot without a capability
CASTER_STYLES = ("hunter~spells", "hunter~cast")
#: a mixture weight below this is the solver's rounding, reported as 0
_ZERO = 1e-12


def styles_for(sheet, rules=None) -> tuple[str, ...]:
    """The styles the dragon of ``sheet`` (a :class:`~dragonsim.lords.game.sheets.Sheet`)
    chooses among at equilibrium under ``rules`` (a RuleSet; None: the basic rules):
    :data:`STYLES`, and for a dragon a Wizard rides where the Wizard's rule is in force the
    caster's variants too (:data:`CASTER_STYLES`: the hunter casting without the next-turn
    spells, and never casting). The one place a dragon's choices are decided."""
    from ..game.state import RIDER_WIZARD

    if sheet.rider_i == RIDER_WIZARD and rules is not None and rules.get("lords.advanced.wizard"):
        return STYLES + CASTER_STYLES
    return STYLES


class ZeroSumSolution(NamedTuple):
    """The solution of a zero-sum matrix game: its ``value`` to the row player and both
    optimal mixtures (``mixture_a`` by row, ``mixture_b`` by column, each summing to 1)."""

    value: float
    mixture_a: np.ndarray
    mixture_b: np.ndarray


def _mixture(x: np.ndarray) -> np.ndarray:
    """A solver's mixture cleaned of its rounding: no negative or tiny weight, sum 1."""
    x = np.where(x < _ZERO, 0.0, x)
    return x / x.sum()


def solve_zero_sum(matrix) -> ZeroSumSolution:
    """Value and optimal mixtures of the zero-sum game ``matrix`` (rows: the maximising player,
    A; entries: A's payoff), the tactics' solver
    (:func:`~dragonsim.lords.game.odds.solve_matrix_game`: two linear programs, HiGHS) on a
    checked matrix, the mixtures cleaned of the solver's rounding.

    A strictly dominated style gets weight 0. When several mixtures are optimal (a tie), the
    solver's vertex is reported; the value is the same for all.

    >>> s = solve_zero_sum([[1.0, 0.0], [0.0, 1.0]])  # matching pennies
    >>> round(s.value, 9), s.mixture_a.tolist(), s.mixture_b.tolist()
    (0.5, [0.5, 0.5], [0.5, 0.5])
    """
    from ..game.odds import solve_matrix_game

    m = np.asarray(matrix, dtype=np.float64)
    if m.ndim != 2 or 0 in m.shape or not np.all(np.isfinite(m)):
        raise UserError(f"a zero-sum game needs a finite matrix with a row and a column, got {m}")
    value, x, y = solve_matrix_game(m)
    return ZeroSumSolution(value, _mixture(np.asarray(x)), _mixture(np.asarray(y)))


def cell_share(r) -> tuple[float, float]:
    """A's win share of a duel (:class:`~dragonsim.lords.results.DuelResult` ``r``: A's wins
    plus half the draws, over its games) and its standard error: a game scores 1, 1/2 or 0,
    so its variance is ``P(A) + P(draw) / 4 - share^2``."""
    if not r.n:
        return math.nan, math.nan
    pa, pd = r.wins_a / r.n, r.draws / r.n
    share = pa + pd / 2
    return share, math.sqrt(max(0.0, pa + pd / 4 - share * share) / r.n)


@dataclass
class EquilibriumResult:
    """A duel at equilibrium: every style of A against every style of B on common random
    numbers (``cells``, row-major: A's style, then B's), the zero-sum game of A's win shares
    (``matrix``) and its ``solution``; the rates are the cells' weighted by both mixtures.

    An interrupted study keeps the cells that finished and has no solution: every cell is
    needed to solve the game.
    """

    a: str
    b: str
    styles_a: tuple[str, ...]  # the bots as given, canonical (hunter, hunter@4, ...)
    styles_b: tuple[str, ...]
    labels_a: tuple[str, ...]  # their versioned labels (hunter-5, ...)
    labels_b: tuple[str, ...]
    n: int  # games a cell
    seed: int
    cells: list = field(repr=False)  # DuelResult per cell played, row-major
    solution: ZeroSumSolution | None = None
    seconds: float = 0.0
    interrupted: bool = False
    manifest: dict[str, Any] = field(default_factory=dict, repr=False)

    # ---- the game --------------------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, int]:
        return len(self.styles_a), len(self.styles_b)

    @property
    def requested(self) -> int:
        """Cells asked for (the command line's interruption line counts cells)."""
        return self.shape[0] * self.shape[1]

    @property
    def finished(self) -> int:
        """Cells played to the end."""
        return len(self.cells)

    def _grid(self, of) -> np.ndarray:
        g = np.full(self.shape, math.nan)
        for k, r in enumerate(self.cells):
            g[divmod(k, self.shape[1])] = of(r)
        return g

    @property
    def matrix(self) -> np.ndarray:
        """A's win share (draws half) by A's style (rows) and B's (columns); NaN for a cell
        not finished."""
        return self._grid(lambda r: cell_share(r)[0])

    @property
    def cell_se(self) -> np.ndarray:
        """The standard error of each cell's share (:func:`cell_share`)."""
        return self._grid(lambda r: cell_share(r)[1])

    @property
    def games(self) -> np.ndarray:
        """Games played in each cell (all ``n``, on common random numbers)."""
        return self._grid(lambda r: r.n)

    @property
    def value(self) -> float:
        """A's win share at equilibrium (NaN when interrupted)."""
        return math.nan if self.solution is None else self.solution.value

    @property
    def mixture_a(self) -> np.ndarray | None:
        return None if self.solution is None else self.solution.mixture_a

    @property
    def mixture_b(self) -> np.ndarray | None:
        return None if self.solution is None else self.solution.mixture_b

    @property
    def weights(self) -> np.ndarray | None:
        """Each cell's weight at equilibrium, ``x_i * y_j`` (sums to 1)."""
        if self.solution is None:
            return None
        return np.outer(self.solution.mixture_a, self.solution.mixture_b)

    @property
    def value_se(self) -> float:
        """The value's standard error with the mixtures held fixed and the cells treated as
        independent: ``sqrt(sum (x_i y_j)^2 se_ij^2)`` (see the module's caveats)."""
        w = self.weights
        return math.nan if w is None else float(math.sqrt(np.sum((w * self.cell_se) ** 2)))

    @property
    def value_se_bound(self) -> float:
        """``sum x_i y_j se_ij``: the value's standard error with the mixtures held fixed
        bounded whatever the cells' correlation (the triangle inequality)."""
        w = self.weights
        return math.nan if w is None else float(np.sum(w * self.cell_se))

    def value_ci(self, confidence: float = 0.95) -> tuple[float, float]:
        """``value +- z * value_se``, within [0, 1]."""
        h = NormalDist().inv_cdf(0.5 + confidence / 2) * self.value_se
        return max(0.0, self.value - h), min(1.0, self.value + h)

    # ---- the rates at equilibrium ------------------------------------------------------------
    def weighted(self, of) -> float:
        """``sum x_i y_j of(cell_ij)``: a per-game number of the duel at equilibrium (NaN when
        interrupted). ``of`` reads a :class:`~dragonsim.lords.results.DuelResult`."""
        w = self.weights
        if w is None:
            return math.nan
        return float(sum(wk * of(r) for wk, r in zip(w.ravel(), self.cells, strict=True)))

    @property
    def win_rate_a(self) -> float:
        return self.weighted(lambda r: r.win_rate_a)

    @property
    def win_rate_b(self) -> float:
        return self.weighted(lambda r: r.win_rate_b)

    @property
    def draw_rate(self) -> float:
        return self.weighted(lambda r: r.draw_rate)

    def events(self) -> dict[str, float]:
        """The events per game at equilibrium (each cell's ``events``, weighted)."""
        from ..results import events_per_game

        if self.solution is None:
            return {}
        w = self.weights.ravel()
        per = [events_per_game(r.counters) for r in self.cells]
        return {k: float(sum(wk * e[k] for wk, e in zip(w, per, strict=True))) for k in per[0]}

    # ---- reports -----------------------------------------------------------------------------
    def to_frame(self):
        """One row per cell: the styles, games, A's and B's wins and the draws, A's share and
        its standard error, and the cell's weight at equilibrium (pandas)."""
        import pandas as pd

        w = self.weights
        rows = []
        for k, r in enumerate(self.cells):
            i, j = divmod(k, self.shape[1])
            share, se = cell_share(r)
            rows.append(
                {
                    "style_a": self.labels_a[i],
                    "style_b": self.labels_b[j],
                    "games": r.n,
                    "wins_a": r.wins_a,
                    "wins_b": r.wins_b,
                    "draws": r.draws,
                    "share_a": share,
                    "se": se,
                    "weight": math.nan if w is None else float(w[i, j]),
                }
            )
        return pd.DataFrame(rows)

    def equilibrium_dict(self) -> dict[str, Any]:
        """The ``equilibrium`` object of ``duel --json``: the styles (versioned, per side), the
        matrix (rows A's styles), both mixtures (in the styles' order), the value, its standard
        error and the games per cell."""
        sol = self.solution
        return {
            "styles": {"a": list(self.labels_a), "b": list(self.labels_b)},
            "matrix": self.matrix.tolist(),
            "mixture_a": None if sol is None else sol.mixture_a.tolist(),
            "mixture_b": None if sol is None else sol.mixture_b.tolist(),
            "value": self.value,
            "value_se": self.value_se,
            "games": [[None if math.isnan(g) else int(g) for g in row] for row in self.games],
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "policy": "equilibrium",
            "n_per_cell": self.n,
            "games": int(sum(r.n for r in self.cells)),
            "seed": self.seed,
            "win_rate_a": self.win_rate_a,
            "win_rate_b": self.win_rate_b,
            "draw_rate": self.draw_rate,
            "mean_turns": self.weighted(lambda r: r.mean_turns),
            "mean_damage_a": self.weighted(lambda r: r.damage_a[0]),
            "mean_damage_b": self.weighted(lambda r: r.damage_b[0]),
            "engagements_per_game": self.weighted(lambda r: r.engagements_per_game),
            "events": self.events(),
            "equilibrium": self.equilibrium_dict(),
            "cells": self.to_frame().to_dict(orient="records"),
            "seconds": self.seconds,
            "interrupted": self.interrupted,
            "cells_finished": self.finished,
            "manifest": self.manifest,
        }

    def summary(self) -> str:
        """The style matrix, both mixtures, the value with its interval and the rates at
        equilibrium, as text."""
        from ...report import rules_line

        lines = [
            f"Dragon Lords duel at equilibrium: {self.a} (A) vs {self.b} (B), each side "
            f"choosing its style",
            f"  {self.n:,} games a cell, the same games (common random numbers) in each, "
            f"seed {self.seed}",
        ]
        if self.interrupted:
            lines.append(
                f"  INTERRUPTED: {self.finished} of {self.requested} cells finished; the game "
                "is solved only with every cell"
            )
        lines += ["", *self._matrix_lines()]
        if self.solution is not None:
            lines += ["", *self._solution_lines()]
        man = self.manifest
        lines += ["", "  " + rules_line(man.get("rules_hash"), man.get("rules_overrides"))]
        return "\n".join(lines)

    def _matrix_lines(self) -> list[str]:
        """A's win share by style (rows A's, columns B's), each side's mixture beside it."""
        m, sol = self.matrix, self.solution
        w = max(11, *(len(s) for s in (*self.labels_a, *self.labels_b)))
        corner = "A \\ B"
        head = f"  {corner:<{w}}" + "".join(f"  {s:>{w}}" for s in self.labels_b)
        lines = [
            "  A's win share (draws half), rows A's style, columns B's:",
            head + ("  A's mixture" if sol is not None else ""),
        ]
        for i, s in enumerate(self.labels_a):
            cells = "".join(
                f"  {'-':>{w}}" if math.isnan(v) else f"  {100 * v:>{w - 1}.2f}%" for v in m[i]
            )
            mix = f"  {sol.mixture_a[i]:>11.3f}" if sol is not None else ""
            lines.append(f"  {s:<{w}}{cells}{mix}")
        if sol is not None:
            mix_b = "".join(f"  {y:>{w}.3f}" for y in sol.mixture_b)
            lines.append("  " + "B's mixture".ljust(w) + mix_b)
        se = self.cell_se
        if np.any(np.isfinite(se)):
            lines.append(
                f"  (each cell's standard error {100 * np.nanmin(se):.2f}.."
                f"{100 * np.nanmax(se):.2f} pp)"
            )
        return lines

    def _solution_lines(self) -> list[str]:
        """The value and its interval, the rates and events at equilibrium."""
        lo, hi = self.value_ci()
        lines = [
            f"  value (A's win share at equilibrium) {100 * self.value:.2f}% "
            f"[{100 * lo:.2f}, {100 * hi:.2f}]",
            "    (95%: +-1.96 standard errors, the mixtures held fixed and the cells taken as "
            "independent;",
            f"    whatever their correlation the standard error is at most "
            f"{100 * self.value_se_bound:.2f} pp)",
            f"  at equilibrium (the cells weighted by both mixtures): A wins "
            f"{100 * self.win_rate_a:.2f}%, B wins {100 * self.win_rate_b:.2f}%, draws "
            f"{100 * self.draw_rate:.2f}%",
            f"  game length      {self.weighted(lambda r: r.mean_turns):.2f} turns on average",
        ]
        lines += _events_lines(self.events())
        return lines


def _events_lines(events: dict[str, float]) -> list[str]:
    """The events per game that happened, grouped as the duel's report groups them (rule
    actions, spells cast, tactics chosen), one wrapped line each."""
    groups: dict[str, list[str]] = {"events a game": [], "spells a game": [], "tactics a game": []}
    for k, v in events.items():
        if not v or v != v:
            continue
        group, name = "events a game", k
        for prefix, g in (("spell_", "spells a game"), ("tactic_", "tactics a game")):
            if k.startswith(prefix):
                group, name = g, k[len(prefix) :]
        groups[group].append(f"{name.replace('_', ' ')} {v:.3g}")
    return [
        f"  {g:<17}" + ("\n" + " " * 19).join(textwrap.wrap(", ".join(parts), 96 - 19))
        for g, parts in groups.items()
        if parts
    ]


def _tag(la: str, lb: str) -> str:
    """A cell's name in its files: ``hunter-5.sniper-2`` (a breadth's ``:`` as ``-``)."""
    return f"{la}.{lb}".replace(":", "-")


def _cell_path(path, tag: str, keep_suffix: bool):
    """A cell's file beside the study's: ``games.parquet`` -> ``games.hunter-5.sniper-2.parquet``
    (``keep_suffix``: records), ``run.ckpt`` -> ``run.ckpt.hunter-5.sniper-2`` (a checkpoint);
    None stays None."""
    if path is None:
        return None
    text = str(path)
    stem, dot, ext = text.rpartition(".")
    if keep_suffix and dot and "/" not in ext:
        return f"{stem}.{tag}.{ext}"
    return f"{text}.{tag}"


def _check_choices(policy, policies, precision, max_n, simultaneous=False) -> None:
    """Refuse what a duel at equilibrium cannot take: a bot per dragon (the styles are the
    choice) and a precision target (every cell plays the same ``n`` games)."""
    if policies is not None:
        raise UserError(
            "policies (one bot per dragon) and policy 'equilibrium' exclude each other: at "
            "equilibrium each dragon chooses among its styles; drop policies"
        )
    if policy is not None and str(policy).strip().lower() != "equilibrium":
        raise UserError(f"policy is 'equilibrium' here, got {policy!r}")
    if precision is not None or max_n is not None or simultaneous:
        raise UserError(
            "a precision target is not taken at equilibrium: every cell plays the same n games "
            "on common random numbers; give n (games a cell)"
        )


def _styles(styles, sa, sb, rules=None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Each side's styles, canonical: ``styles`` (one list for both sides) or
    :func:`styles_for` each sheet."""
    from ..bots import policy_spec

    if styles is None:
        pa, pb = styles_for(sa, rules), styles_for(sb, rules)
    else:
        if isinstance(styles, str):
            styles = [s.strip() for s in styles.split(",") if s.strip()]
        pa = pb = tuple(styles)
    out = []
    for side in (pa, pb):
        side = tuple(policy_spec(s) for s in side)
        if not side or len(set(side)) != len(side):
            raise UserError(f"styles must name one or more different bots, got {list(side)}")
        out.append(side)
    return out[0], out[1]


def _play_cells(a, b, styles_a, styles_b, run_kw, checkpoint, records) -> list:
    """Every style of A against every style of B, row-major, each the plain
    :func:`~dragonsim.lords.api.duel` of ``run_kw`` (the same seed and ``n``: common random
    numbers), each cell's checkpoint and records beside the study's. An interruption ends the
    study with the cells that finished (the one in flight is dropped: its games are in its
    checkpoint); none finished: KeyboardInterrupt."""
    from ..api import duel
    from ..bots import policy_version

    cells: list = []
    for s in styles_a:
        for t in styles_b:
            tag = _tag(policy_version(s), policy_version(t))
            try:
                r = duel(
                    a,
                    b,
                    policies=(s, t),
                    checkpoint=_cell_path(checkpoint, tag, keep_suffix=False),
                    records=_cell_path(records, tag, keep_suffix=True),
                    **run_kw,
                )
            except KeyboardInterrupt:
                if not cells:
                    raise
                return cells
            if r.interrupted:
                if not cells:
                    raise KeyboardInterrupt
                return cells
            cells.append(r)
    return cells


def equilibrium_duel(
    a,
    b,
    *,
    n: int | str | float | None = None,
    seed: int = 1,
    styles: Sequence[str] | str | None = None,
    rules=None,
    turn_limit: int = defaults.TURN_LIMIT,
    plan_samples: int = defaults.PLAN_SAMPLES,
    scenario=None,
    spells: str = "bot",
    threads: int | None = None,
    progress: bool | None = None,
    backend: str = "local",
    dask_client=None,
    checkpoint=None,
    records: str | None = None,
    policy: str | None = "equilibrium",
    policies=None,
    precision: float | None = None,
    max_n=None,
    simultaneous: bool = False,
) -> EquilibriumResult:
    """The duel of ``a`` and ``b`` with both sides choosing their style (``duel A B --policy
    equilibrium``): every style of A (:func:`styles_for`, or ``styles`` for both sides, e.g.
    ``"hunter@4,sniper"``) against every style of B, each cell ``n`` games of ``seed`` (the
    same games: common random numbers), and the zero-sum game of A's win shares solved.

    The result's rates (A wins, B wins, draws), game length, damage and events per game are
    the cells' weighted by both mixtures. ``rules``, ``turn_limit``, ``plan_samples``,
    ``scenario``, ``spells``, ``threads``, ``progress``, ``backend`` and ``dask_client`` go to
    every cell's :func:`~dragonsim.lords.api.duel`; ``checkpoint`` and ``records`` name one
    file per cell beside them (``games.parquet`` -> ``games.hunter-5.sniper-2.parquet``,
    ``run.ckpt`` -> ``run.ckpt.hunter-5.sniper-2``). ``policies`` and ``precision`` are
    UserErrors (the styles are the choice; every cell plays the same ``n``).
    """
    from ...report import manifest
    from ..bots import policy_version
    from ..game.sheets import sheet
    from ..inputs import _rules

    _check_choices(policy, policies, precision, max_n, simultaneous)
    if n is None:
        raise UserError("n (games a cell) is needed, e.g. n=10_000")
    n = parse_count(n)
    rs = _rules(rules)
    sa, sb = sheet(a, rules=rs), sheet(b, rules=rs)
    styles_a, styles_b = _styles(styles, sa, sb, rs)
    labels_a = tuple(policy_version(s) for s in styles_a)
    labels_b = tuple(policy_version(s) for s in styles_b)
    if records is not None:
        from ...records import check_path

        check_path(records)
    run_kw = dict(
        n=n,
        seed=seed,
        rules=rs,
        turn_limit=turn_limit,
        plan_samples=plan_samples,
        scenario=scenario,
        spells=spells,
        threads=threads,
        progress=progress,
        backend=backend,
        dask_client=dask_client,
    )
    cells = _play_cells(a, b, styles_a, styles_b, run_kw, checkpoint, records)
    interrupted = len(cells) < len(styles_a) * len(styles_b)
    res = EquilibriumResult(
        a=sa.name,
        b=sb.name,
        styles_a=styles_a,
        styles_b=styles_b,
        labels_a=labels_a,
        labels_b=labels_b,
        n=n,
        seed=int(seed),
        cells=cells,
        seconds=float(sum(r.seconds for r in cells)),
        interrupted=interrupted,
    )
    if not interrupted:
        res.solution = solve_zero_sum(res.matrix)
    first = cells[0].manifest
    res.manifest = manifest(
        command="duel",
        policy="equilibrium",
        a=sa.to_dict(),
        b=sb.to_dict(),
        styles={"a": list(labels_a), "b": list(labels_b)},
        seed=int(seed),
        n_per_cell=n,
        rules_hash=first.get("rules_hash"),
        rules_overrides=first.get("rules_overrides"),
        options=first.get("options"),
        scenario=first.get("scenario"),
        seconds=res.seconds,
        interrupted=interrupted,
    )
    return res
