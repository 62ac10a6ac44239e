"""Builds against the field, paired on common random numbers: the gauntlet.

"Is my build better against the field than Skyblazer?" is a comparison of two scores measured on
the same opponents, so :func:`gauntlet` plays every entrant against every dragon of the field
(default the twelve ready-made dragons, Dragon Lords rulebook pp.30-35, or the names and designs
of a file), ``n`` games from each seat, and pairs the entrants game by game:

* **Common random numbers.** Game ``k`` of field cell ``c`` (a field dragon and a seat),
  whoever the entrant, plays from the streams ``(seed, c n + k)``
  (:func:`~dragonsim.lords.analysis.designs.play_pair_games`; the same streams a
  :func:`~dragonsim.lords.analysis.designs.play_pairs` run of one entrant's cells gives): two
  entrants meet each field dragon in the same placements, initiative rolls and dice, so some of
  the luck that moves one score moves the other alike and drops out of their difference (a
  game's outcomes for Reaper and Skyblazer against the same dragon correlate 0.01 to 0.36 by
  dragon, the pairing :func:`~dragonsim.lords.analysis.paired.pilot` measures). Each cell has
  streams of its own rather than every cell playing ``(seed, k)``: on one stream for every cell
  the cells' luck is shared too, and at ``n = 3000`` the difference Heavy/Large/Magma/Dull -
  Skyblazer had a standard error of 0.0026 (pairing cut the variance 0.97x) against 0.0020
  (1.31x) with a stream block per cell.
* **Score.** An entrant's share of the points against the field (a win 1, a draw 1/2), every
  field dragon met equally often from each seat. A ready-made that is also in the field meets
  itself once, as every member of the field does.
* **Intervals.** Game index ``k`` is one replicate of the whole gauntlet: every entrant's
  games ``k`` against every field dragon from both seats, from the streams ``(seed, c n + k)``
  of the cells ``c`` and no others, so the replicates are independent. An entrant's score is
  the mean over ``k`` of its replicate score ``X_k`` (its mean over the field and seats in game
  ``k``), and its 95% interval is normal, ``+-1.96 sd(X) / sqrt(n)``. A difference of two
  entrants' scores is the mean of the per-replicate differences, with the interval of that
  mean: the paired interval, narrower than the unpaired one (``sqrt(var X_a + var X_b)``,
  the interval of two independent runs of the same size, reported beside it) by as much as
  the games' luck is shared. Holm's step-down procedure over every pair of entrants says which
  differences are real at family-wise 5%.

Examples
--------
>>> r = gauntlet(["body=Heavy,wings=Large,breath=Magma,claws=Dull", "Skyblazer"])  # doctest: +SKIP
>>> r.to_frame("difference")  # doctest: +SKIP
"""

from __future__ import annotations

import itertools
import math
import textwrap
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

import numpy as np

from ... import defaults
from ...errors import UserError, check_int, check_seed, read_text
from ...stats import holm
from ..game.sheets import rule_switches
from .designs import field_text, pair_setup, play_pair_games, short_label

__all__ = [
    "gauntlet",
    "GauntletResult",
    "field_scores",
    "read_field",
    "short_label",
    "p_text",
    "DEFAULT_N",
]

#: games per field dragon from each seat: 12 dragons x 2 seats x 1,000 = 24,000 games an
#: entrant, a score's interval about +-0.006 (a difference's about +-0.008), a second or two
#: an entrant on 2 cores
DEFAULT_N = 1000
#: most entrants (pairs of entrants grow as its square) and most field dragons
MAX_ENTRANTS = 32
MAX_FIELD = 64
#: the family-wise error of the verdicts and one minus the intervals' level
ALPHA = 0.05


# ------------------------------------------------------------------------------- the result
@dataclass
class GauntletResult:
    """Each entrant's score against the field with its interval (:meth:`to_frame`), every
    difference of two entrants with its paired interval and Holm's verdict, each entrant's
    score against each field dragon, a figure (:meth:`plot`) and the manifest."""

    entrants: list[str]
    costs: list[int]
    field_names: list[str]
    n: int  # games per field dragon from each seat (finished by every entrant)
    seed: int
    policy: str
    scores: list[dict[str, Any]]
    differences: list[dict[str, Any]]
    by_field: list[dict[str, Any]]
    games: int
    seconds: float
    manifest: dict[str, Any] = field(default_factory=dict)
    interrupted: bool = False
    requested: int | None = None

    @property
    def finished(self) -> int:
        return self.games

    def to_frame(self, level: str = "entrant"):
        """``level="entrant"`` (default): one row per entrant: ``entrant``, ``cost`` (design
        points), ``score`` (share of the points against the field, draws half) with ``lo`` /
        ``hi`` (95%) and ``se``, ``wins``, ``draws``, ``losses``, ``games``.

        ``level="difference"``: one row per pair of entrants: ``a``, ``b``, ``difference``
        (a's score minus b's) with ``lo`` / ``hi`` (95%, paired on the common games) and
        ``se``, ``lo_unpaired`` / ``hi_unpaired`` (the interval two independent runs would
        give), ``variance_reduction`` (unpaired over paired variance), ``p`` and ``verdict``
        (Holm 5%).

        ``level="field"``: one row per entrant and field dragon: the entrant's score against
        that dragon (both seats), ``games``."""
        import pandas as pd

        rows = {"entrant": self.scores, "difference": self.differences, "field": self.by_field}
        if level not in rows:
            raise UserError(f"level must be 'entrant', 'difference' or 'field', got {level!r}")
        return pd.DataFrame(rows[level])

    def to_dict(self) -> dict[str, Any]:
        return {
            "entrants": [
                {"name": e, "cost": c} for e, c in zip(self.entrants, self.costs, strict=True)
            ],
            "field": self.field_names,
            "n_per_seat": self.n,
            "seed": self.seed,
            "policy": self.policy,
            "scores": self.scores,
            "differences": self.differences,
            "by_field": self.by_field,
            "games": self.games,
            "seconds": self.seconds,
            "interrupted": self.interrupted,
            "manifest": self.manifest,
        }

    def summary(self) -> str:
        from ...report import interrupted_line, rules_line

        width = max(12, *(len(short_label(e)) for e in self.entrants))
        lines = [
            f"Gauntlet: {len(self.entrants)} entrant(s) against {field_text(self.field_names)}, "
            f"{self.n:,} games a dragon from each seat, paired on common random numbers; bot "
            f"{self.policy}, seed {self.seed}",
            f"  {self.games:,} games in {self.seconds:.1f} s; "
            + rules_line(self.manifest.get("rules_hash"), self.manifest.get("rules_overrides")),
            *interrupted_line(self),
            "",
            f"  {'entrant':<{width}} {'DP':>3}  {'score':>6}  {'95% interval':>16}  "
            "(share of the points against the field, draws half)",
        ]
        for s in sorted(self.scores, key=lambda r: -r["score"]):
            lines.append(
                f"  {short_label(s['entrant']):<{width}} {s['cost']:>3}  {s['score']:>6.3f}  "
                f"[{s['lo']:.3f}, {s['hi']:.3f}]"
            )
        if self.differences:
            lines += [
                "",
                "  differences (a - b; 95% interval paired on the common games, the unpaired "
                "one for contrast; Holm 5% over every pair):",
            ]
            for d in self.differences:
                lines.append(
                    f"    {short_label(d['a'])} - {short_label(d['b'])}: "
                    f"{d['difference']:+.3f} [{d['lo']:+.3f}, {d['hi']:+.3f}] "
                    f"(unpaired [{d['lo_unpaired']:+.3f}, {d['hi_unpaired']:+.3f}], pairing cut "
                    f"the variance {d['variance_reduction']:.1f}x), {p_text(d['p'])}: "
                    f"{d['verdict']}"
                )
        return "\n".join(lines)

    def plot(self):
        """Left: each entrant's score against the field (dot, 95% interval), best at the
        top, with the even share (0.5) marked. Right (two entrants or more): each difference
        of two entrants with its paired 95% interval (dark) over the unpaired one (pale),
        coloured when Holm calls it. The legends sit below the panels, off the data. Returns
        the figure."""
        import matplotlib.pyplot as plt

        from ...report import plot_style

        order = sorted(range(len(self.scores)), key=lambda i: self.scores[i]["score"])
        diffs = self.differences
        with plot_style():
            ncols = 2 if diffs else 1
            height = 2.4 + 0.5 * max(len(order), len(diffs), 3)
            fig, axes = plt.subplots(
                1, ncols, figsize=(5.6 * ncols, height), squeeze=False, layout="constrained"
            )
            self._plot_scores(axes[0, 0], order)
            if diffs:
                self._plot_differences(axes[0, 1])
            handles = [h for ax in axes[0] for h in ax.get_legend_handles_labels()[0]]
            fig.legend(handles=handles, loc="outside lower center", ncol=len(handles), fontsize=8)
        return fig

    def _plot_scores(self, ax, order) -> None:
        y = np.arange(len(order))
        for yy, i in zip(y, order, strict=True):
            s = self.scores[i]
            ax.errorbar(
                s["score"],
                yy,
                xerr=[[s["score"] - s["lo"]], [s["hi"] - s["score"]]],
                fmt="o",
                color="tab:blue",
                ms=6,
                lw=1.6,
                capsize=3,
            )
        ax.axvline(0.5, color="0.4", ls="--", lw=0.9)
        ax.set_yticks(y)
        ax.set_yticklabels(
            [_wrap(f"{short_label(self.entrants[i])} ({self.costs[i]} DP)") for i in order],
            fontsize=8.5,
        )
        ax.set_ylim(-0.7, len(order) - 0.3)
        ax.set_xlabel("share of the points against the field (draws half)")
        ax.grid(axis="x", alpha=0.3)
        ax.set_title(
            _wrap(
                f"Score against {field_text(self.field_names)}, {self.n:,} games a dragon "
                f"from each seat (bot {self.policy})",
                48,
            ),
            fontsize=10,
        )
        ax.plot([], [], "o", color="tab:blue", label="score, 95% interval")
        ax.plot(
            [],
            [],
            "--",
            color="0.4",
            label="even share (0.5)" + ("; no difference (0)" if self.differences else ""),
        )

    def _plot_differences(self, ax) -> None:
        colours = {"a better": "tab:green", "b better": "tab:red", "not separated": "0.3"}
        y = np.arange(len(self.differences))[::-1]
        for yy, d in zip(y, self.differences, strict=True):
            ax.plot([d["lo_unpaired"], d["hi_unpaired"]], [yy, yy], color="0.8", lw=6)
            ax.errorbar(
                d["difference"],
                yy,
                xerr=[[d["difference"] - d["lo"]], [d["hi"] - d["difference"]]],
                fmt="o",
                color=colours[d["verdict"]],
                ms=6,
                lw=1.6,
                capsize=3,
            )
        ax.axvline(0.0, color="0.4", ls="--", lw=0.9)
        ax.set_yticks(y)
        ax.set_yticklabels(
            [_wrap(f"{short_label(d['a'])}\n- {short_label(d['b'])}") for d in self.differences],
            fontsize=8.5,
        )
        ax.set_ylim(-0.7, len(y) - 0.3)
        ax.set_xlabel("difference of scores (a - b)")
        ax.grid(axis="x", alpha=0.3)
        ax.set_title(
            _wrap("Differences of scores, paired on the same games", 48),
            fontsize=10,
        )
        ax.plot([], [], color="0.8", lw=6, label="difference: unpaired 95%")
        keys = {
            "not separated": "paired 95%, not separated",
            "a better": "a better (Holm 5%)",
            "b better": "b better (Holm 5%)",
        }
        for verdict in keys:  # a key only for the verdicts shown
            if any(d["verdict"] == verdict for d in self.differences):
                ax.plot([], [], "o", color=colours[verdict], label=keys[verdict])


def p_text(p: float) -> str:
    """``p 0.031``, or ``p < 1e-15`` where a normal tail is below what a double resolves."""
    return "p < 1e-15" if p < 1e-15 else f"p {p:.2g}"


def _wrap(text: str, width: int = 30) -> str:
    """``text`` broken into lines of ``width`` characters at most (existing breaks kept), so a
    long design label fits beside its axis."""
    return "\n".join(
        "\n".join(textwrap.wrap(line, width, break_on_hyphens=False) or [""])
        for line in text.split("\n")
    )


# ------------------------------------------------------------------------------- the scores
def field_scores(points: np.ndarray, names: Sequence[str]) -> tuple[list, list]:
    """The scores and their differences from the points of every game (module docstring).

    ``points``: float [k, E, C], entrant ``e``'s points (1, 1/2, 0) in game ``k`` of field
    cell ``c`` (a field dragon and a seat); ``names``: the E entrants. Returns ``(scores,
    differences)``, the rows of :meth:`GauntletResult.to_frame`'s ``entrant`` (without the
    counts) and ``difference`` levels.

    >>> pts = np.array([[[1.0], [0.0]], [[1.0], [1.0]], [[0.0], [0.0]], [[1.0], [0.5]]])
    >>> s, d = field_scores(pts, ["a", "b"])
    >>> s[0]["score"], s[1]["score"], d[0]["difference"]
    (0.75, 0.375, 0.375)
    """
    x = np.asarray(points, dtype=float).mean(axis=2)  # [k, E]: each replicate's score
    k = x.shape[0]
    z = NormalDist().inv_cdf(1 - ALPHA / 2)
    score = x.mean(axis=0)
    var = x.var(axis=0, ddof=1) / k if k > 1 else np.full(x.shape[1], math.nan)
    scores = []
    for e, name in enumerate(names):
        se = math.sqrt(var[e])
        scores.append(
            {
                "entrant": name,
                "score": float(score[e]),
                "lo": float(score[e] - z * se),
                "hi": float(score[e] + z * se),
                "se": se,
            }
        )
    diffs = []
    for a, b in itertools.combinations(range(x.shape[1]), 2):
        d = x[:, a] - x[:, b]
        diff = float(score[a] - score[b])
        se = math.sqrt(float(d.var(ddof=1)) / k) if k > 1 else math.nan
        se_u = math.sqrt(float(var[a] + var[b]))
        if se > 0:
            p = 2 * (1 - NormalDist().cdf(abs(diff) / se))
        else:  # identical in every game (or too few games): no evidence either way
            p = 1.0 if diff == 0 or not math.isfinite(se) else 0.0
        diffs.append(
            {
                "a": names[a],
                "b": names[b],
                "difference": diff,
                "lo": diff - z * se,
                "hi": diff + z * se,
                "se": se,
                "lo_unpaired": diff - z * se_u,
                "hi_unpaired": diff + z * se_u,
                "se_unpaired": se_u,
                "variance_reduction": se_u**2 / se**2 if se > 0 else math.inf,
                "p": float(p),
            }
        )
    for d, real in zip(diffs, holm([d["p"] for d in diffs], alpha=ALPHA), strict=True):
        d["verdict"] = (
            ("a better" if d["difference"] > 0 else "b better") if real else "not separated"
        )
    return scores, diffs


def read_field(path) -> list[str]:
    """The field listed in a text file: one ready-made name or inline design a line (blank
    lines and ``#`` comments skipped)."""
    text = read_text(path, "field file")
    out = [line.split("#", 1)[0].strip() for line in text.splitlines()]
    out = [line for line in out if line]
    if not out:
        raise UserError(f"field file {str(path)!r} names no dragon (one name or design a line)")
    return out


def _sheets(items, rs, what: str, most: int) -> list:
    """The sheets of ``items`` (names or designs) under ``rs``; a UserError for none, too
    many, or one given twice."""
    from ..game.sheets import sheet

    if isinstance(items, str) or not isinstance(items, Sequence):
        raise UserError(f"{what} must be a list of names or designs, got {items!r}")
    if not 1 <= len(items) <= most:
        raise UserError(f"{what} must be 1 to {most} dragons, got {len(items)}")
    sheets = [sheet(i, rules=rs) for i in items]
    names = [s.name for s in sheets]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise UserError(f"{what}: {', '.join(twice)} given twice; name each once")
    return sheets


# ------------------------------------------------------------------------------- the study
def gauntlet(
    entrants: Sequence,
    *,
    field: Sequence | None = None,
    n: int = DEFAULT_N,
    seed: int = 1,
    policy: str = "hunter",
    rules=None,
    turn_limit: int = defaults.TURN_LIMIT,
    progress: bool | None = False,
    threads: int | None = None,
    kernel: Callable[..., Any] | None = None,
) -> GauntletResult:
    """Score each of ``entrants`` against ``field`` on common random numbers, and every
    difference of two of them with its paired interval (the module docstring says how).

    Parameters
    ----------
    entrants
        Ready-made names or inline designs (``body=Heavy,wings=Large,breath=Magma,claws=Dull``),
        1 to 32, each once.
    field
        The opponents, names or designs (default the twelve ready-made dragons).
    n
        Games per field dragon from each seat (at least 2, for an interval).
    seed, policy, rules, turn_limit
        The streams, the bot every dragon plays, the rules (a RuleSet, overrides or a preset's
        name), a game's turn limit.
    progress, threads
        As for :func:`~dragonsim.runner.run_blocks`.
    kernel
        Replaces :func:`~dragonsim.lords.analysis.designs.pair_games_kernel` (a synthetic win
        model in tests).
    """
    from ..bots import policy_version
    from ..game.sheets import ROSTER
    from ..inputs import _rules

    rs = _rules(rules)
    n = check_int(n, "n", 2, 10**7)
    seed = check_seed(seed)
    ents = _sheets(entrants, rs, "entrants", MAX_ENTRANTS)
    fsheets = _sheets(list(ROSTER) if field is None else field, rs, "the field", MAX_FIELD)
    setup = pair_setup(policy=policy, rules=rs, turn_limit=turn_limit)
    cells = [(f, seat) for f in range(len(fsheets)) for seat in (0, 1)]
    pairs = [(e, fsheets[f]) if seat == 0 else (fsheets[f], e) for e in ents for f, seat in cells]
    t0 = time.perf_counter()
    winners, out = play_pair_games(
        pairs,
        setup,
        n=n,
        seed=seed,
        streams=[c * n for _ in ents for c in range(len(cells))],
        kernel=kernel,
        progress=progress,
        label=f"games ({len(ents)} entrants x {len(fsheets)} field dragons x 2 seats)",
        threads=threads,
    )
    seconds = time.perf_counter() - t0
    k = winners.shape[0]
    if k < 2:
        raise UserError(f"only {k} game(s) a pairing finished: too few for an interval")
    seat = np.tile([0, 1], len(fsheets))  # the entrant's side in each cell
    w = winners.reshape(k, len(ents), len(cells))
    points = np.where(w == -1, 0.5, (w == seat).astype(float))
    names = [e.name for e in ents]
    scores, diffs = field_scores(points, names)
    scores = [
        {
            "entrant": s["entrant"],
            "cost": int(e.cost),
            **{key: v for key, v in s.items() if key != "entrant"},
            "wins": int((p == 1).sum()),
            "draws": int((p == 0.5).sum()),
            "losses": int((p == 0).sum()),
            "games": int(p.size),
        }
        for s, e, p in zip(scores, ents, np.moveaxis(points, 1, 0), strict=True)
    ]
    by_field = [
        {
            "entrant": names[e],
            "field": fsheets[f].name,
            "score": float(points[:, e, 2 * f : 2 * f + 2].mean()),
            "games": int(2 * k),
        }
        for e in range(len(ents))
        for f in range(len(fsheets))
    ]
    return GauntletResult(
        entrants=names,
        costs=[int(e.cost) for e in ents],
        field_names=[s.name for s in fsheets],
        n=k,
        seed=seed,
        policy=policy_version(setup.policy),
        scores=scores,
        differences=diffs,
        by_field=by_field,
        games=int(k * len(pairs)),
        seconds=seconds,
        interrupted=out.interrupted,
        requested=n * len(pairs),
        manifest=_manifest(rs, seed, n, setup, names, fsheets, out),
    )


def _manifest(rs, seed, n, setup, names, fsheets, out) -> dict[str, Any]:
    """The run's manifest: rules, seed, games, bot, entrants, field."""
    from ...report import manifest
    from ..bots import policy_version

    return manifest(
        command="gauntlet",
        rules_hash=rs.hash,
        rules_overrides=rs.overrides,
        options=rule_switches(rs),
        seed=seed,
        n_per_seat=n,
        common_random_numbers=True,
        policy=policy_version(setup.policy),
        entrants=list(names),
        field=[s.name for s in fsheets],
        interrupted=out.interrupted,
    )
