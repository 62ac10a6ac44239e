"""Balance across skill: the tournament, the fair prices and the best builds under several bots,
and where the answer changes with the bot.

The rulebook promises "a special points system which makes dragons of equivalent point values
equally matched" (Dragon Lords rulebook, Advanced Scenarios, "Using Your Own Dragons"). Whether
it keeps that promise depends on who plays: a design that wins between careful players may lose
between careless ones. :func:`skill` runs up to three studies under each bot of ``bots``
(listed weakest first, e.g. ``random,hunter:4,hunter``: the random mover, hunter-4 scoring 4
end states a move, hunter-4 at its default breadth) and puts them side by side:

* **tournament** -- the round robin of the ready-made dragons under each bot, by
  :func:`~dragonsim.lords.analysis.robustness.robustness` (its pairs, verdicts and Holm family):
  each dragon's Bradley-Terry rating and win share per bot with 95% intervals, and the pairs
  whose verdict (the first dragon wins more, the second does, or *balanced*: not shown either
  way, Holm 5% over every pair and bot) changes between bots, e.g. "balanced only for weak
  play" when the bots that find a pair balanced are the weakest ones.
* **prices** -- :func:`~dragonsim.lords.analysis.pricing.prices` under each bot: every option's fair
  price with its 95% interval, and the options whose verdict (over-priced, under-priced,
  fair?; Holm 5% within each bot's study) differs between bots.
* **best** -- :func:`~dragonsim.lords.analysis.race.best` under each bot: the top builds per bot,
  each with the rank its build has in the other bots' races.

Every study plays the same seed under every bot. The defaults keep a run of all three under
three bots to a few minutes on two cores: a short tournament, a sample of the price band and
a short race; raise ``n``, ``price_designs`` / ``price_n`` and ``best_games`` for firmer
answers.

Examples
--------
>>> from dragonsim.lords.analysis.skill import skill
>>> r = skill(bots="random,hunter", what="tournament", n=200)  # doctest: +SKIP
>>> r.pairs()[["a", "b", "random-1", "hunter-4", "note"]]  # doctest: +SKIP
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

import numpy as np

from ...errors import UserError, parse_count
from ..game.sheets import rule_switches

__all__ = ["skill", "SkillResult", "DEFAULT_BOTS", "STUDIES"]

#: the bots compared by default, weakest first: the random mover, hunter-4 scoring 4 end
#: states a move (a hasty player), hunter-4 at its default breadth (the default bot)
DEFAULT_BOTS = ("random", "hunter:4", "hunter")
#: the studies :func:`skill` can run
STUDIES = ("tournament", "prices", "best")
#: a short run's sizes: games per pair, designs and games per seat of the price study, the
#: race's game budget (see :func:`skill`)
DEFAULT_N = 400
DEFAULT_PRICE_DESIGNS = None
DEFAULT_PRICE_N = 1
DEFAULT_BEST_GAMES = 60_000
_Z = NormalDist().inv_cdf(0.975)
#: the price table's entries that are not a verdict on the option
_NO_VERDICT = ("reference", "not in the band", "no price")


def _short(design: str) -> str:
    """A design's options only, ``Heavy/Large/Magma/Blunt/-`` (a figure's label)."""
    parts = dict(p.split("=", 1) for p in design.split(",") if "=" in p)
    keys = ("body", "wings", "breath", "claws", "rider")
    return "/".join(parts.get(k, "-") for k in keys) if parts else design


def _verdict_word(v: str, a: str, b: str) -> str:
    return {"A": f"{a} wins more", "B": f"{b} wins more"}.get(v, "balanced")


def _note(verdicts: Sequence[str], labels: Sequence[str], a: str, b: str) -> str:
    """Where a pair's verdict changes with the bot, in words; "" when every bot agrees."""
    if len(set(verdicts)) == 1:
        return ""
    balanced = [lab for lab, v in zip(labels, verdicts, strict=True) if v == "even?"]
    k = len(balanced)
    decided = {v for v in verdicts if v != "even?"}
    if len(decided) > 1:  # a reversal: say who wins under which bots
        k = 0
    if k and balanced == list(labels[:k]):
        return f"balanced only for weak play ({', '.join(balanced)})"
    if k and balanced == list(labels[-k:]):
        return f"balanced only for strong play ({', '.join(balanced)})"
    groups: dict[str, list[str]] = {}
    for lab, v in zip(labels, verdicts, strict=True):
        groups.setdefault(_verdict_word(v, a, b), []).append(lab)
    return "; ".join(f"{w} under {', '.join(ls)}" for w, ls in groups.items())


@dataclass
class SkillResult:
    """The studies of :func:`skill`, one per bot, and the tables that set them side by side."""

    bots: list[str]
    labels: list[str]  # the bots' versioned labels (random-1, hunter-4:4, hunter-4)
    what: list[str]
    budget: int
    seed: int
    tournament: Any = None  # RobustnessResult, or None when not run
    prices: dict[str, Any] = field(default_factory=dict)  # label -> PricesResult
    best: dict[str, Any] = field(default_factory=dict)  # label -> BestResult
    seconds: dict[str, float] = field(default_factory=dict)
    top: int = 5
    manifest: dict[str, Any] = field(default_factory=dict)

    # -- tournament ------------------------------------------------------------------------
    def ratings(self):
        """One row per dragon and bot: ``dragon``, ``bot``, ``rating`` (Bradley-Terry,
        log-odds, centred) with ``lo`` / ``hi`` (95%), ``win_share`` (of its games, draws
        half) with ``share_lo`` / ``share_hi`` (95%, normal with the variance bound
        ``s (1 - s) / games``: a game scores 1, 1/2 or 0), ``games``."""
        import pandas as pd

        rows = []
        if self.tournament is None:
            return pd.DataFrame(rows)
        for label, t in zip(self.tournament.labels, self.tournament.tournaments, strict=True):
            for _, r in t.ratings.iterrows():
                g = float(r["games"])
                s = float(r["wins"]) / g if g else float("nan")
                half = _Z * np.sqrt(max(s * (1 - s), 1e-12) / g) if g else float("nan")
                rows.append(
                    {
                        "dragon": r["name"],
                        "bot": label,
                        "rating": float(r["rating"]),
                        "lo": float(r["lo"]),
                        "hi": float(r["hi"]),
                        "win_share": s,
                        "share_lo": max(0.0, s - half),
                        "share_hi": min(1.0, s + half),
                        "games": int(round(g)),
                    }
                )
        return pd.DataFrame(rows)

    def pairs(self):
        """One row per pair: ``a``, ``b``, each bot's verdict (``A`` / ``B`` / ``balanced``),
        each bot's share (``share <bot>``: a's win share, draws half), ``changes`` (the bots
        disagree), ``note`` (the change in words: "balanced only for weak play (random-1)",
        "Reaper wins more under random-1; Skyblazer wins more under hunter-4")."""
        import pandas as pd

        if self.tournament is None:
            return pd.DataFrame()
        rb = self.tournament
        v = rb.verdicts()
        rows = []
        for k, (_, r) in enumerate(v.iterrows()):
            verdicts = [str(r[lab]) for lab in rb.labels]
            row = {"a": r["a"], "b": r["b"]}
            row.update({lab: ("balanced" if x == "even?" else x) for lab, x in zip(
                rb.labels, verdicts, strict=True)})  # fmt: skip
            row.update({f"share {lab}": float(rb.shares[b, k]) for b, lab in enumerate(rb.labels)})
            row["changes"] = len(set(verdicts)) > 1
            row["note"] = _note(verdicts, rb.labels, r["a"], r["b"])
            rows.append(row)
        return pd.DataFrame(rows)

    # -- prices ----------------------------------------------------------------------------
    def price_table(self):
        """One row per option and bot: ``slot``, ``option``, ``printed``, ``bot``, ``fair``
        with ``lo`` / ``hi`` (95%), ``verdict`` (that bot's study, Holm 5%)."""
        import pandas as pd

        rows = []
        for label, res in self.prices.items():
            for r in res.table:
                rows.append(
                    {
                        "slot": r["slot"],
                        "option": r["option"],
                        "printed": r["printed"],
                        "bot": label,
                        "fair": r["fair"],
                        "lo": r["lo"],
                        "hi": r["hi"],
                        "verdict": r["verdict"],
                    }
                )
        return pd.DataFrame(rows)

    def price_changes(self):
        """The options whose verdict differs between bots: ``slot``, ``option``, ``printed``,
        each bot's ``fair`` (``fair <bot>``) and verdict (``<bot>``), ``spread`` (the largest
        minus the smallest fair price, DP). Only the bots that price the option count (a
        reference, or an option no drawn design holds, has no verdict)."""
        import pandas as pd

        t = self.price_table()
        rows = []
        if t.empty:
            return pd.DataFrame(rows)
        for (slot, option), g in t.groupby(["slot", "option"], sort=False):
            priced = g[~g["verdict"].isin(_NO_VERDICT)]
            if priced["verdict"].nunique() < 2:
                continue
            row = {"slot": slot, "option": option, "printed": int(g["printed"].iloc[0])}
            for _, r in g.iterrows():
                row[f"fair {r['bot']}"] = float(r["fair"])
                row[r["bot"]] = r["verdict"]
            row["spread"] = float(priced["fair"].max() - priced["fair"].min())
            rows.append(row)
        return pd.DataFrame(rows)

    # -- best ------------------------------------------------------------------------------
    def best_table(self, top: int | None = None):
        """Each bot's ``top`` builds: ``bot``, ``rank`` (1 = best score), ``design``,
        ``score`` (share of points against the field, draws half) with ``lo95`` / ``hi95``,
        ``survivor`` (not separated from the top by that bot's race), and ``rank <bot>``: the
        build's rank by score in each bot's race (every design is scored in round 0)."""
        import pandas as pd

        top = self.top if top is None else top
        frames = {label: res.to_frame() for label, res in self.best.items()}
        ranks = {
            label: {d: i + 1 for i, d in enumerate(f.sort_values("score", ascending=False).design)}
            for label, f in frames.items()
        }
        rows = []
        for label, f in frames.items():
            f = f.sort_values(["survivor", "score"], ascending=False).head(top)
            for i, (_, r) in enumerate(f.iterrows(), start=1):
                row = {
                    "bot": label,
                    "rank": i,
                    "design": r["design"],
                    "score": float(r["score"]),
                    "lo95": float(r["lo95"]),
                    "hi95": float(r["hi95"]),
                    "survivor": bool(r["survivor"]),
                }
                row.update({f"rank {lab}": ranks[lab].get(r["design"]) for lab in frames})
                rows.append(row)
        return pd.DataFrame(rows)

    # -- output ----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "bots": self.labels,
            "what": self.what,
            "budget": self.budget,
            "seed": self.seed,
            "seconds": self.seconds,
            "tournament": None
            if self.tournament is None
            else {
                "n_per_pair": self.tournament.n,
                "ratings": self.ratings().to_dict(orient="records"),
                "pairs": self.pairs().to_dict(orient="records"),
            },
            "prices": None
            if not self.prices
            else {
                "table": self.price_table().to_dict(orient="records"),
                "changes": self.price_changes().to_dict(orient="records"),
            },
            "best": None if not self.best else self.best_table().to_dict(orient="records"),
            "manifest": self.manifest,
        }

    def summary(self) -> str:
        from ...report import rules_line

        lines = [
            f"Balance across skill: {', '.join(self.what)} under {len(self.labels)} bots "
            f"({', '.join(self.labels)}; weakest first), seed {self.seed}",
            "  "
            + rules_line(self.manifest.get("rules_hash"), self.manifest.get("rules_overrides")),
        ]
        if self.tournament is not None:
            lines += ["", *self._tournament_lines()]
        if self.prices:
            lines += ["", *self._price_lines()]
        if self.best:
            lines += ["", *self._best_lines()]
        return "\n".join(lines)

    def _tournament_lines(self) -> list[str]:
        rb = self.tournament
        r = self.ratings()
        labels = rb.labels
        lines = [
            f"tournament: the {len(rb.names)} dragons' round robin, {rb.n:,} games a pair under "
            f"each bot ({self.seconds.get('tournament', 0):.0f} s)",
            "  win share (draws half) [95% interval] per bot; rating = Bradley-Terry log-odds",
            f"  {'dragon':<12} "
            + " ".join(f"{lab:>21}" for lab in labels)
            + f"  {'rating ' + labels[0]:>14} {'rating ' + labels[-1]:>14}",
        ]
        order = r[r.bot == labels[-1]].sort_values("win_share", ascending=False).dragon
        for d in order:
            cells = []
            rat = []
            for lab in labels:
                x = r[(r.dragon == d) & (r.bot == lab)].iloc[0]
                cells.append(f"{x.win_share:.3f} [{x.share_lo:.3f}, {x.share_hi:.3f}]")
                if lab in (labels[0], labels[-1]):
                    rat.append(f"{x.rating:+14.2f}")
            lines.append(f"  {d:<12} " + " ".join(f"{c:>21}" for c in cells) + "  " + " ".join(rat))
        p = self.pairs()
        ch = p[p.changes]
        lines += [
            f"  pairs whose verdict changes with the bot: {len(ch)} of {len(p)} (verdict: who "
            "wins more, or balanced = not shown either way; Holm 5% over every pair and bot)",
        ]
        weak = ch[ch.note.str.startswith("balanced only for weak")]
        if len(ch):
            lines.append(f"    of them balanced only for weak play: {len(weak)}")
        for _, x in ch.iterrows():
            shares = ", ".join(f"{lab} {x[f'share {lab}']:.3f}" for lab in labels)
            lines.append(f"    {x.a} v {x.b}: {x.note}  ({x.a}'s share: {shares})")
        return lines

    def _price_lines(self) -> list[str]:
        labels = list(self.prices)
        first = next(iter(self.prices.values()))
        t = self.price_table()
        secs = self.seconds.get("prices", 0)
        lines = [
            f"prices at {self.budget} DP: {len(first.designs)} designs of "
            f"{first.band[0]}..{first.band[1]} DP, {first.n} game{'s' * (first.n != 1)} a seat "
            f"per pairing, under each bot ({secs:.0f} s)",
            "  fair price in design points [95% interval] per bot, verdict "
            "(o over-priced, u under-priced, . fair?; Holm 5% within each bot's study)",
            f"  {'option':<17} {'printed':>7} " + " ".join(f"{lab:>23}" for lab in labels),
        ]
        mark = {"over-priced": "o", "under-priced": "u", "fair?": "."}
        for (_slot, option), g in t.groupby(["slot", "option"], sort=False):
            g = g.set_index("bot")
            if g["verdict"].iloc[0] == "reference":
                cells = [f"{'(reference)':>23}" for _ in labels]
            else:
                cells = [
                    f"{g.loc[lab, 'fair']:6.2f} [{g.loc[lab, 'lo']:6.2f}, {g.loc[lab, 'hi']:6.2f}]"
                    f" {mark.get(g.loc[lab, 'verdict'], '?')}"
                    for lab in labels
                ]
            lines.append(f"  {option:<17} {int(g['printed'].iloc[0]):>7} " + " ".join(cells))
        c = self.price_changes()
        lines.append(
            f"  options whose verdict differs between bots: {len(c)} of {t.option.nunique()}"
        )
        for _, x in c.iterrows():
            parts = ", ".join(f"{lab} {x[lab]} ({x[f'fair {lab}']:.2f})" for lab in labels)
            lines.append(f"    {x.option} (printed {x.printed}): {parts}")
        return lines

    def _best_lines(self) -> list[str]:
        labels = list(self.best)
        b = self.best_table()
        first = next(iter(self.best.values()))
        lines = [
            f"best builds at {self.budget} DP: {len(first.designs)} designs raced against the "
            f"field per bot, {first.total_games:,} games under {labels[0]} "
            f"({self.seconds.get('best', 0):.0f} s in all)",
            f"  each bot's top {self.top} (score = share of points against the field [95% "
            "alone]; * = not separated from the top; rank of the build in each bot's race)",
        ]
        w = max(len(d) for d in b.design)
        for lab in labels:
            res = self.best[lab]
            lines.append(f"  {lab}: {len(res.survivors)} builds not separated from the top")
            for _, x in b[b.bot == lab].iterrows():
                rk = " ".join(f"{x[f'rank {o}']:>4}" for o in labels)
                lines.append(
                    f"    {x['rank']}. {x.design:<{w}} {x.score:.3f} [{x.lo95:.3f}, "
                    f"{x.hi95:.3f}]{'*' if x.survivor else ' '}  ranks {rk}"
                )
        tops = {lab: b[(b.bot == lab) & (b["rank"] == 1)].design.iloc[0] for lab in labels}
        same = len(set(tops.values())) == 1
        lines.append(
            "  the top build is the same under every bot"
            if same
            else "  the top build changes with the bot: "
            + "; ".join(f"{lab} {d}" for lab, d in tops.items())
        )
        if not same:
            tied = [
                lab
                for lab, d in tops.items()
                if all(d in set(self.best[o].survivors) for o in labels)
            ]
            lines.append(
                f"    not separated from the top in every bot's race: {len(tied)} of "
                f"{len(tops)} of them"
                + (f" ({', '.join(tied)}'s)" if tied else "")
                + " (a longer race, --best-games, separates more)"
            )
        return lines

    def plot(self):
        """One panel per study run: the dragons' win shares per bot (tournament), the options'
        fair prices per bot against the printed price (prices), the top builds' scores per bot
        (best), each with 95% intervals. Returns the figure."""
        import matplotlib.pyplot as plt

        from ...report import plot_style

        panels = [w for w in ("tournament", "prices", "best") if self._has(w)]
        markers = "osD^vP*X"
        with plot_style():
            heights = {"tournament": 4.0, "prices": 7.5, "best": 4.5}
            fig, axes = plt.subplots(
                1,
                len(panels),
                figsize=(4.6 * len(panels) + 1.5, max(heights[p] for p in panels)),
                squeeze=False,
                layout="constrained",
            )
            for ax, what in zip(axes[0], panels, strict=True):
                getattr(self, f"_plot_{what}")(ax, markers)
            handles, names = axes[0][0].get_legend_handles_labels()
            axes[0][-1].legend(
                handles, names, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8,
                title="bot", title_fontsize=8, frameon=False,
            )  # fmt: skip
            fig.suptitle(
                f"Balance across skill ({', '.join(self.labels)}), seed {self.seed}", fontsize=11
            )
        return fig

    def _has(self, what: str) -> bool:
        return {"tournament": self.tournament is not None, "prices": bool(self.prices),
                "best": bool(self.best)}[what]  # fmt: skip

    def _dodge(self, b: int) -> float:
        return (b - (len(self.labels) - 1) / 2) * 0.8 / max(len(self.labels), 1)

    def _plot_tournament(self, ax, markers):
        r = self.ratings()
        last = self.tournament.labels[-1]
        order = list(r[r.bot == last].sort_values("win_share").dragon)
        y = np.arange(len(order))
        for b, lab in enumerate(self.tournament.labels):
            x = r[r.bot == lab].set_index("dragon").loc[order]
            ax.errorbar(
                x.win_share, y + self._dodge(b),
                xerr=[x.win_share - x.share_lo, x.share_hi - x.win_share],
                fmt=markers[b % len(markers)], ms=4, lw=0.8, capsize=0, label=lab,
            )  # fmt: skip
        ax.axvline(0.5, color="0.3", lw=0.8, ls="--")
        ax.set_yticks(y)
        ax.set_yticklabels(order, fontsize=8)
        ax.set_xlabel("win share in the round robin (draws half), 95%")
        ax.set_title(f"tournament, {self.tournament.n:,} games a pair", fontsize=9)
        ax.grid(axis="x", alpha=0.3)

    def _plot_prices(self, ax, markers):
        t = self.price_table()
        t = t[t.verdict != "reference"]
        opts = list(dict.fromkeys(t.option))
        y = -np.arange(len(opts))
        first = t[t.bot == t.bot.iloc[0]].set_index("option").loc[opts]
        ax.scatter(first.printed, y, marker="|", s=120, color="k", label="printed", zorder=3)
        for b, lab in enumerate(self.prices):
            x = t[t.bot == lab].set_index("option").loc[opts]
            ax.errorbar(
                x.fair, y + self._dodge(b), xerr=[x.fair - x.lo, x.hi - x.fair],
                fmt=markers[b % len(markers)], ms=3.5, lw=0.8, capsize=0,
                label=lab,
            )  # fmt: skip
        ax.set_yticks(y)
        ax.set_yticklabels(opts, fontsize=7)
        ax.set_xlabel("fair price, design points (| printed), 95%")
        ax.set_title(f"prices at {self.budget} DP (slot references omitted)", fontsize=9)
        ax.grid(axis="x", alpha=0.3)

    def _plot_best(self, ax, markers):
        b = self.best_table()
        designs = list(dict.fromkeys(b.design))
        y = -np.arange(len(designs))
        for k, lab in enumerate(self.best):
            f = self.best[lab].to_frame().set_index("design").loc[designs]
            ax.errorbar(
                f.score, y + self._dodge(k), xerr=[f.score - f.lo95, f.hi95 - f.score],
                fmt=markers[k % len(markers)], ms=3.5, lw=0.8, capsize=0,
                label=lab,
            )  # fmt: skip
        ax.set_yticks(y)
        ax.set_yticklabels([_short(d) for d in designs], fontsize=7)
        ax.set_xlabel("score against the field (draws half), 95%")
        ax.set_title(
            f"each bot's top {self.top} builds at {self.budget} DP\n"
            "(body/wings/breath/claws/rider)",
            fontsize=9,
        )
        ax.grid(axis="x", alpha=0.3)


def skill(
    *,
    bots: Sequence[str] | str = DEFAULT_BOTS,
    what: Sequence[str] | str = STUDIES,
    budget: int = 15,
    n: int = DEFAULT_N,
    seed: int = 1,
    dragons: Sequence | None = None,
    field_dragons: Sequence | None = None,
    price_designs: int | None = DEFAULT_PRICE_DESIGNS,
    price_n: int = DEFAULT_PRICE_N,
    best_games: int = DEFAULT_BEST_GAMES,
    top: int = 5,
    rules=None,
    progress: bool | None = False,
    threads: int | None = None,
) -> SkillResult:
    """Run the studies ``what`` (any of ``tournament``, ``prices``, ``best``) under each bot of
    ``bots`` (two or more, weakest first) and set them side by side (the module docstring says
    what each compares).

    Parameters
    ----------
    bots
        Bot names (``"random,hunter:4,hunter"`` or a list), weakest first: a pair balanced
        under the first bots only reads "balanced only for weak play".
    what
        The studies to run (comma separated or a list).
    budget
        Design points of the price band's centre (+-3) and of the race's builds.
    n
        Games a pair in each bot's tournament.
    dragons
        The tournament's dragons (default: the twelve ready-made dragons).
    field_dragons
        The fixed opponents of the prices and the race (default: the twelve ready-made).
    price_designs, price_n
        Designs drawn from the price band (None: every one) and games a seat per pairing.
    best_games
        Each bot's race game budget (``max_games`` of :func:`~dragonsim.lords.analysis.race.best`;
        its first round of 2 games a seat per field dragon is always played).
    top
        Builds listed per bot.
    """
    from ...report import manifest
    from ..bots import policy_spec, policy_version
    from ..inputs import _rules
    from .pricing import prices
    from .race import best
    from .robustness import robustness

    if isinstance(bots, str):
        bots = [b.strip() for b in bots.split(",") if b.strip()]
    bots = [policy_spec(b) for b in bots]
    if len(bots) < 2 or len(set(bots)) != len(bots):
        raise UserError(
            f"skill compares two or more different bots, got {bots}; e.g. {','.join(DEFAULT_BOTS)}"
        )
    if isinstance(what, str):
        what = [w.strip().lower() for w in what.split(",") if w.strip()]
    bad = [w for w in what if w not in STUDIES]
    if bad or not what:
        raise UserError(f"unknown study {bad or what}; allowed: {', '.join(STUDIES)}")
    what = [w for w in STUDIES if w in what]
    n = parse_count(n)
    price_n = parse_count(price_n, "price games")
    best_games = parse_count(best_games, "best games")
    top = parse_count(top, "top")
    if price_designs is not None:
        price_designs = parse_count(price_designs, "price designs")
    rs = _rules(rules)
    labels = [policy_version(b) for b in bots]
    out = SkillResult(bots, labels, list(what), int(budget), int(seed), top=top)
    if "tournament" in what:
        t0 = time.perf_counter()
        ref = "hunter" if "hunter" in bots else bots[-1]
        out.tournament = robustness(
            dragons, n=n, seed=seed, bots=bots, reference=ref, rules=rs, progress=progress,
            threads=threads,
        )  # fmt: skip
        out.seconds["tournament"] = time.perf_counter() - t0
    if "prices" in what:
        t0 = time.perf_counter()
        for b, lab in zip(bots, labels, strict=True):
            out.prices[lab] = prices(
                budget, designs=price_designs, n=price_n, seed=seed, policy=b, rules=rs,
                field_dragons=field_dragons,
                progress=progress, threads=threads,
            )  # fmt: skip
        out.seconds["prices"] = time.perf_counter() - t0
    if "best" in what:
        t0 = time.perf_counter()
        for b, lab in zip(bots, labels, strict=True):
            out.best[lab] = best(
                budget, n0=2, rounds=10, max_games=best_games, seed=seed, policy=b, rules=rs,
                field_dragons=field_dragons,
                top=top, progress=progress, threads=threads,
            )  # fmt: skip
        out.seconds["best"] = time.perf_counter() - t0
    out.manifest = manifest(
        command="skill",
        bots=labels,
        what=list(what),
        budget=int(budget),
        seed=int(seed),
        n_per_pair=n if "tournament" in what else None,
        price_designs=price_designs,
        price_n=price_n,
        best_games=best_games,
        rules_hash=rs.hash,
        rules_overrides=rs.overrides,
        options=rule_switches(rs),
        seconds={k: round(v, 1) for k, v in out.seconds.items()},
    )
    return out
