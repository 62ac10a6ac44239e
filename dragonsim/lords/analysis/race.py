"""The best build at a budget: every legal design raced against the field.

:func:`best` takes every legal design costing exactly ``budget`` design points (the Single
Dragon Method: "all dragons are made up from the same number of design points", Dragon Lords
rulebook p.26; 433 designs at 15 DP,
:func:`~dragonsim.lords.analysis.designs.legal_designs`) and races them against a field (default
the twelve ready-made dragons, pp.30-35). A design's **score** is its share of points against
the field (a win 1, a draw 1/2), every field dragon met equally often from each seat; the best
build is the design with the highest expected score under the bot and rules in force.

**The race (successive halving).** In round ``r`` (0, 1, ...) every surviving design plays
``n0 * 2**r`` new games from each seat against every field dragon, the same game indices for
every design (common random numbers: game ``k`` of every pairing plays from the streams
``(seed, k)``), so each round doubles the games a survivor has while the survivors thin out.
After each round a design is eliminated when its upper confidence bound falls below the
highest lower bound among the survivors.

**Error control.** The bounds are Hoeffding's: a design with ``N`` games (each scoring in
``[0, 1]``, independent given the designs) has score within ``sqrt(log(2 K R / alpha) / (2 N))``
of its expectation except with probability ``alpha / (K R)``, where ``K`` is the number of
designs and ``R`` the most rounds the race may run (fixed before it starts). A union bound over
every design and every round gives the guarantee, which holds however the eliminations went and
whenever the race stops: **with probability at least 1 - alpha, every bound the race computes
holds, so the best design is never eliminated and every eliminated design is worse than some
survivor.** The survivors at the end are the builds the race could not separate from the top;
the guarantee does not rank them. The bounds do not use the pairing of the games (common random
numbers make the rounds' rankings steadier, but the guarantee does not count on it), so they are
conservative.

A game budget (``max_games``) cuts the race short: a round that would pass it plays what is
left and is the last.

Examples
--------
>>> r = best(15, n0=16)  # doctest: +SKIP
>>> r.to_frame().head()  # doctest: +SKIP
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ... import defaults
from ...errors import UserError, check_int, check_seed
from ..game.sheets import rule_switches
from .designs import field_text, legal_designs, pair_setup, play_pairs

__all__ = ["best", "BestResult", "hoeffding_radius"]

ALPHA = 0.05
MAX_ROUNDS = 20


def hoeffding_radius(games, k: int, rounds: int, alpha: float = ALPHA):
    """Half-width of the race's bounds for a design with ``games`` games: ``sqrt(log(2 k
    rounds / alpha) / (2 games))`` (Hoeffding, each bound missing with probability ``alpha /
    (k rounds)``).

    >>> round(float(hoeffding_radius(10_000, 433, 8)), 4)
    0.0243
    """
    g = np.asarray(games, dtype=float)
    with np.errstate(divide="ignore"):
        return np.sqrt(math.log(2 * k * rounds / alpha) / (2 * g))


@dataclass
class BestResult:
    """Every design's score and bounds (:meth:`to_frame`), the survivors, the rounds."""

    budget: int
    policy: str
    seed: int
    n0: int
    rounds_planned: int
    alpha: float
    field_names: list[str]
    designs: list[str]
    points: np.ndarray  # [K] points against the field
    games: np.ndarray  # [K] games against the field
    eliminated: np.ndarray  # [K] the round a design was eliminated in, -1 a survivor
    history: list[dict[str, Any]]
    total_games: int
    seconds: float
    top: int = 10
    manifest: dict[str, Any] = field(default_factory=dict)
    interrupted: bool = False

    @property
    def scores(self) -> np.ndarray:
        return self.points / np.maximum(self.games, 1)

    @property
    def radius(self) -> np.ndarray:
        return hoeffding_radius(
            np.maximum(self.games, 1), len(self.designs), self.rounds_planned, self.alpha
        )

    @property
    def survivors(self) -> list[str]:
        """The designs the race could not separate from the top, best score first."""
        idx = np.flatnonzero(self.eliminated < 0)
        return [self.designs[i] for i in idx[np.argsort(-self.scores[idx])]]

    def to_frame(self):
        """One row per design, best score first: ``design``, ``score`` (share of points
        against the field), ``lo`` / ``hi`` (the race's simultaneous bounds at its last
        look), ``lo95`` / ``hi95`` (a plain 95% normal interval of that score alone),
        ``games``, ``eliminated_in`` (round, or -1: survived), ``survivor``."""
        import pandas as pd

        s = self.scores
        rad = self.radius
        g = np.maximum(self.games, 1)
        se = np.sqrt(np.clip(s * (1 - s), 1e-12, None) / g)
        df = pd.DataFrame(
            {
                "design": self.designs,
                "score": s,
                "lo": np.clip(s - rad, 0, 1),
                "hi": np.clip(s + rad, 0, 1),
                "lo95": np.clip(s - 1.96 * se, 0, 1),
                "hi95": np.clip(s + 1.96 * se, 0, 1),
                "games": self.games.astype(int),
                "eliminated_in": self.eliminated.astype(int),
                "survivor": self.eliminated < 0,
            }
        )
        return df.sort_values(["survivor", "score"], ascending=False).reset_index(drop=True)

    def to_dict(self) -> dict[str, Any]:
        return {
            "budget": self.budget,
            "policy": self.policy,
            "seed": self.seed,
            "n0": self.n0,
            "rounds_planned": self.rounds_planned,
            "alpha": self.alpha,
            "field": self.field_names,
            "survivors": self.survivors,
            "designs": self.to_frame().to_dict(orient="records"),
            "rounds": self.history,
            "games": self.total_games,
            "seconds": self.seconds,
            "interrupted": self.interrupted,
            "manifest": self.manifest,
        }

    def summary(self) -> str:
        from ...report import rules_line

        df = self.to_frame()
        surv = df[df.survivor]
        lines = [
            f"The best build at {self.budget} DP: {len(self.designs)} legal designs raced "
            f"against {field_text(self.field_names)} (each from both seats), "
            f"bot {self.policy}, seed {self.seed}",
            f"  {self.total_games:,} games in {self.seconds:.0f} s, {len(self.history)} rounds "
            f"(round r: {self.n0} x 2^r new games per seat per field dragon); "
            + rules_line(self.manifest.get("rules_hash"), self.manifest.get("rules_overrides")),
            *(
                ["  INTERRUPTED: the rounds below are the ones that finished"]
                if self.interrupted
                else []
            ),
            f"  score: share of points against the field (draws half); bounds: Hoeffding, "
            f"simultaneous over every design and {self.rounds_planned} rounds "
            f"(P(the best build is ever eliminated) <= {self.alpha})",
            "  rounds: "
            + "; ".join(
                f"{h['round']}: {h['designs']} designs x {h['games_per_design']:,} games"
                f" -> {h['survivors']}"
                for h in self.history
            ),
            "",
            f"  the {len(surv)} builds the race could not separate from the top:",
            f"    {'design':<62} {'score':>6}  {'race bounds':>15}  {'95% alone':>15}  "
            f"{'games':>7}",
        ]
        for _, r in surv.head(max(self.top, 1)).iterrows():
            lines.append(
                f"    {r['design']:<62} {r['score']:6.3f}  [{r['lo']:.3f}, {r['hi']:.3f}]  "
                f"[{r['lo95']:.3f}, {r['hi95']:.3f}]  {r['games']:>7,}"
            )
        if len(surv) > self.top:
            lines.append(f"    ... and {len(surv) - self.top} more (to_frame() / --csv lists all)")
        out = df[~df.survivor].head(3)
        if len(out):
            lines.append("  the best eliminated:")
            for _, r in out.iterrows():
                lines.append(
                    f"    {r['design']:<62} {r['score']:6.3f}  [{r['lo']:.3f}, {r['hi']:.3f}]"
                    f"  out in round {r['eliminated_in']}"
                )
        return "\n".join(lines)

    def plot(self):
        """Left: the top builds' scores with the race's bounds (survivors dark, the best
        eliminated grey) and the highest lower bound, the line a build must reach. Right:
        designs left after each round. Returns the figure."""
        import matplotlib.pyplot as plt

        from ...report import plot_style

        df = self.to_frame()
        show = df.head(max(self.top, min(25, int(df.survivor.sum()) + 5)))
        with plot_style():
            fig, (ax, bx) = plt.subplots(
                1, 2, figsize=(12, 0.9 + 0.3 * len(show)), gridspec_kw={"width_ratios": [3, 1]}
            )
            y = -np.arange(len(show))
            col = np.where(show.survivor, "tab:blue", "0.6")
            for yy, (_, r), c in zip(y, show.iterrows(), col, strict=True):
                ax.errorbar(
                    r.score,
                    yy,
                    xerr=[[r.score - r.lo], [r.hi - r.score]],
                    fmt="o",
                    color=c,
                    ms=4,
                    lw=1.2,
                    capsize=2,
                )
            surv = df[df.survivor]
            if len(surv):
                ax.axvline(surv.lo.max(), color="tab:red", ls="--", lw=0.9)
            ax.set_yticks(y)
            ax.set_yticklabels(show.design, fontsize=7)
            ax.set_xlabel("share of points against the field, with the race's bounds")
            ax.errorbar(
                [],
                [],
                xerr=[],
                fmt="o",
                color="tab:blue",
                label="survivor (not separated from the top)",
            )
            ax.errorbar([], [], xerr=[], fmt="o", color="0.6", label="eliminated")
            ax.plot([], [], ls="--", color="tab:red", label="highest lower bound")
            ax.legend(loc="upper left", fontsize=7.5, frameon=True, framealpha=0.9)
            ax.grid(axis="x", alpha=0.3)
            ax.set_title(
                f"The best build at {self.budget} DP (bot {self.policy}): "
                f"{len(surv)} of {len(self.designs)} designs survive",
                fontsize=10,
            )
            left = [len(self.designs)] + [h["survivors"] for h in self.history]
            xs = [-1] + [h["round"] for h in self.history]
            bx.plot(xs, left, "o-", color="tab:blue")
            for i, v in zip(xs, left, strict=True):
                bx.annotate(str(v), (i, v), textcoords="offset points", xytext=(3, 4), fontsize=7)
            bx.set_yscale("log")
            bx.set_xticks(xs)
            bx.set_xticklabels(["in"] + [str(x) for x in xs[1:]], fontsize=8)
            bx.set_xlabel("after round")
            bx.set_ylabel("designs left")
            bx.set_title("designs left after each round\n(in: at the start)", fontsize=10)
            bx.grid(alpha=0.3)
            fig.tight_layout()
        return fig


def best(
    budget: int = 15,
    *,
    n0: int = 16,
    rounds: int = 10,
    max_games: int = 8_000_000,
    alpha: float = ALPHA,
    seed: int = 1,
    policy: str = "hunter",
    rules=None,
    field_dragons: Sequence | None = None,
    top: int = 10,
    turn_limit: int = defaults.TURN_LIMIT,
    progress: bool | None = False,
    checkpoint=None,
    backend: str = "local",
    dask_client=None,
    threads: int | None = None,
    kernel: Callable[..., np.ndarray] | None = None,
) -> BestResult:
    """Race every legal design costing exactly ``budget`` against the field (the module
    docstring states the race and its guarantee).

    Parameters
    ----------
    n0, rounds
        Games per seat per field dragon in round 0 (doubling every round), and the most
        rounds (``R`` of the guarantee).
    max_games
        The race's game budget; the round that reaches it is the last.
    alpha
        The chance the best design is ever eliminated is at most this.
    seed, policy, rules, turn_limit, field_dragons
        The games: seed, the bot for every dragon, the rules (RuleSet or overrides), the turn
        limit, the fixed opponents (default the twelve ready-made dragons).
    top
        How many survivors the summary lists.
    progress, checkpoint, backend, dask_client, threads
        As for :func:`~dragonsim.runner.run_blocks` (``checkpoint``: a path; each round is a
        section, and the same call resumes).
    kernel
        Replaces the engine's pairs kernel (a synthetic win model in tests).
    """
    from ...checkpoint import Checkpoint
    from ...report import manifest
    from ..bots import policy_version
    from ..game.sheets import sheet
    from ..inputs import _rules

    rs = _rules(rules)
    budget = check_int(budget, "budget", 0, 1000)
    n0 = check_int(n0, "n0", 1, 10**6)
    rounds = check_int(rounds, "rounds", 1, MAX_ROUNDS)
    max_games = check_int(max_games, "max_games", 1, 10**12)
    top = check_int(top, "top", 1, 10_000)
    seed = check_seed(seed)
    if not 0.0 < float(alpha) < 1.0:
        raise UserError(f"alpha must be in (0, 1), got {alpha!r}")
    cands = _candidates(budget, rs)
    fsheets = _field(field_dragons, rs)
    dsheets = [sheet(d.label, rules=rs) for d in cands]
    setup = pair_setup(policy=policy, rules=rs, turn_limit=turn_limit)
    k = len(cands)
    settings = {"budget": budget, "n0": n0, "rounds": rounds, "max_games": max_games}
    ck = None
    if checkpoint is not None:
        ck = Checkpoint(checkpoint, _identity(settings, alpha, fsheets, setup.policy, seed, rs))
    points = np.zeros(k)
    games = np.zeros(k)
    eliminated = np.full(k, -1)
    alive = np.arange(k)
    history: list[dict[str, Any]] = []
    total = 0
    offset = 0
    interrupted = False
    t0 = time.perf_counter()
    per_round = 2 * len(fsheets)  # pairings per design: every field dragon from each seat
    for r in range(rounds):
        m, last = _round_games(n0, r, rounds, max_games - total, len(alive) * per_round)
        if m < 1:
            break
        try:
            counts, out = play_pairs(
                [p for i in alive for f in fsheets for p in ((dsheets[i], f), (f, dsheets[i]))],
                setup,
                n=m,
                seed=seed,
                offset=offset,
                common=True,
                kernel=kernel,
                progress=progress,
                checkpoint=None if ck is None else ck.section(f"round {r}"),
                label=f"games (round {r}, {len(alive)} designs)",
                backend=backend,
                dask_client=dask_client,
                threads=threads,
            )
        except KeyboardInterrupt:
            if not history:
                raise
            interrupted = True
            break
        if out.interrupted:
            interrupted = True
            break
        _add_round(counts, alive, len(fsheets), points, games)
        total += int(counts.sum())
        offset += m
        out_now, floor = _separated(points[alive], games[alive], k, rounds, alpha)
        eliminated[alive[out_now]] = r
        history.append(_round_row(r, alive, per_round * m, out_now, floor))
        alive = alive[~out_now]
        if len(alive) <= 1 or last:
            break
    return BestResult(
        budget=budget,
        policy=policy_version(setup.policy),
        seed=seed,
        n0=n0,
        rounds_planned=rounds,
        alpha=float(alpha),
        field_names=[s.name for s in fsheets],
        designs=[d.label for d in cands],
        points=points,
        games=games,
        eliminated=eliminated,
        history=history,
        total_games=total,
        seconds=time.perf_counter() - t0,
        top=top,
        interrupted=interrupted,
        manifest=manifest(
            command="best",
            rules_hash=rs.hash,
            rules_overrides=rs.overrides,
            options=rule_switches(rs),
            seed=seed,
            **settings,
            alpha=float(alpha),
            policy=policy_version(setup.policy),
            field=[s.name for s in fsheets],
            interrupted=interrupted,
        ),
    )


def _candidates(budget: int, rs) -> list:
    """Every legal design costing exactly ``budget`` design points; a UserError when none."""
    cands = legal_designs(budget, rules=rs)
    if not cands:
        b = rs.get("lords.design_bounds")
        raise UserError(
            f"no legal design costs exactly {budget} design points (a design costs "
            f"{b['min']}..{b['max']}, rulebook p.26)"
        )
    return cands


def _field(field_dragons, rs) -> list:
    """The sheets of the fixed opponents (default the ready-made dragons), at least one."""
    from ..game.sheets import ROSTER, sheet

    fnames = list(ROSTER) if field_dragons is None else list(field_dragons)
    if not fnames:
        raise UserError("the field needs at least one dragon")
    return [sheet(f, rules=rs) for f in fnames]


def _round_games(n0: int, r: int, rounds: int, left: int, pairings: int) -> tuple[int, bool]:
    """Round ``r``'s games per pairing (``n0 * 2**r``, or what the ``left`` of the game budget
    allows over the round's ``pairings``) and whether it is the last round."""
    m = n0 * 2**r
    last = r == rounds - 1
    if pairings * m >= left:
        m = left // pairings
        last = True
    return m, last


def _identity(settings, alpha, fsheets, policy, seed, rs) -> dict[str, Any]:
    """What a race's checkpoint must match to resume."""
    return {
        "command": "best",
        **settings,
        "alpha": float(alpha),
        "field": [s.name for s in fsheets],
        "policy": policy,
        "seed": seed,
        "rules_hash": rs.hash,
    }


def _add_round(counts, alive, nf: int, points, games) -> None:
    """Add a round's counts (each alive design against each of the ``nf`` field dragons from
    both seats: wins of side 0, of side 1, draws) to the designs' points (draws half) and
    games."""
    c = counts.reshape(len(alive), nf, 2, 3)
    # side 0 is the design in the first of each two pairings, side 1 in the second
    pts = c[:, :, 0, 0] + c[:, :, 1, 1] + 0.5 * (c[:, :, 0, 2] + c[:, :, 1, 2])
    points[alive] += pts.sum(axis=1)
    games[alive] += c.sum(axis=(1, 2, 3))


def _round_row(r: int, alive, games_per_design: int, out_now, floor: float) -> dict[str, Any]:
    """Round ``r`` as the race's history keeps it."""
    return {
        "round": r,
        "designs": int(len(alive)),
        "games_per_design": int(games_per_design),
        "survivors": int((~out_now).sum()),
        "floor": floor,
    }


def _separated(points, games, k: int, rounds: int, alpha: float):
    """Which designs' upper Hoeffding bounds fall below the best lower bound (the floor), and
    the floor."""
    s = points / games
    rad = hoeffding_radius(games, k, rounds, alpha)
    floor = float(np.max(s - rad))
    return s + rad < floor, floor
