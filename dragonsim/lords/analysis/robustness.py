"""How much a verdict depends on the bot: one round robin per bot, and the verdicts that flip.

A balance verdict ("Reaper beats Skyblazer") is a statement about the rules *and* about how
the dragons are played. :func:`robustness` plays the same round robin (every pair ``n``
games, each side first in half of them, :func:`~dragonsim.lords.analysis.study.tournament`) under
several bots -- by default the released hunter-2 and hunter-3, today's hunter, weaker and
stronger hunter breadths and the look-ahead ``search`` -- and for every pair and bot reports
the first dragon's win share (draws count half) with its 95% interval.

A verdict is a two-sided test of "even" (share 1/2) on each pair under each bot, all of them
one family under Holm's step-down procedure (family-wise error 5%): a pair is ``A`` (the first
dragon wins more), ``B`` or ``even?`` (not shown either way). A pair **flips** when one bot
says ``A`` and another ``B``; it **moves** when the bots disagree only between a verdict and
``even?``. The variance of a share is bounded by ``s (1 - s) / n`` (a game scores 1, 1/2 or
0, and no variable on ``[0, 1]`` with mean ``s`` varies more), so the tests are conservative
when there are draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

import numpy as np

from ...errors import UserError, parse_count
from ...stats import holm

#: the bots compared by default: the released hunter-2 and hunter-3, hunter-4 (the default)
#: and a weaker and a stronger breadth of it, and the look-ahead
DEFAULT_BOTS = ("hunter@2", "hunter@3", "hunter", "hunter:4", "hunter:64", "search")
#: the bot the others are compared with (a verdict's change is measured from it)
DEFAULT_REFERENCE = "hunter"
ALPHA = 0.05


@dataclass
class RobustnessResult:
    """One row per pair and bot (:meth:`frame`), the verdict per pair (:meth:`verdicts`)."""

    names: list[str]
    bots: list[str]
    labels: list[str]  # the bots' versioned labels (hunter-3, search-1, ...)
    reference: str
    n: int
    seed: int
    shares: np.ndarray  # [bots, pairs]: the first dragon's win share
    pairs: list[tuple[int, int]]
    manifest: dict[str, Any] = field(default_factory=dict)
    interrupted: bool = False
    bots_done: int | None = None
    #: each finished bot's round robin (:class:`~dragonsim.lords.analysis.study.TournamentResult`:
    #: its ratings and matrix), in the order of ``bots``
    tournaments: list = field(default_factory=list, repr=False)

    @property
    def requested(self) -> int:
        return len(self.bots)

    @property
    def finished(self) -> int | None:
        return self.bots_done

    def _tests(self):
        s = self.shares
        se = np.sqrt(np.clip(s * (1 - s), 1e-12, None) / self.n)
        z = (s - 0.5) / se
        p = 2 * (1 - np.vectorize(NormalDist().cdf)(np.abs(z)))
        rej = np.array(holm(list(p.ravel()), alpha=ALPHA)).reshape(p.shape)
        verdict = np.where(rej, np.where(s > 0.5, "A", "B"), "even?")
        return se, p, verdict

    def frame(self):
        """One row per pair and bot: ``a``, ``b``, ``bot``, ``share`` (a's win share, draws
        half), ``lo``/``hi`` (95%), ``p`` (two-sided, "even"), ``verdict`` after Holm over all
        rows, and ``vs_reference`` (share minus the reference bot's on the same pair)."""
        import pandas as pd

        se, p, verdict = self._tests()
        z = NormalDist().inv_cdf(0.975)
        ref = self.shares[self.bots.index(self.reference)]
        rows = []
        for b, label in enumerate(self.labels):
            for k, (i, j) in enumerate(self.pairs):
                s = float(self.shares[b, k])
                rows.append(
                    {
                        "a": self.names[i],
                        "b": self.names[j],
                        "bot": label,
                        "share": s,
                        "lo": max(0.0, s - z * se[b, k]),
                        "hi": min(1.0, s + z * se[b, k]),
                        "p": float(p[b, k]),
                        "verdict": str(verdict[b, k]),
                        "vs_reference": s - float(ref[k]),
                    }
                )
        return pd.DataFrame(rows)

    def verdicts(self):
        """One row per pair: each bot's verdict, and whether the pair ``flips`` (one bot says
        A, another B) or ``moves`` (some bot says even? where another decides)."""
        import pandas as pd

        _, _, verdict = self._tests()
        rows = []
        for k, (i, j) in enumerate(self.pairs):
            v = [str(x) for x in verdict[:, k]]
            decided = {x for x in v if x != "even?"}
            rows.append(
                {
                    "a": self.names[i],
                    "b": self.names[j],
                    **dict(zip(self.labels, v, strict=True)),
                    "flips": len(decided) == 2,
                    "moves": len(decided) == 1 and "even?" in v,
                    "spread": float(self.shares[:, k].max() - self.shares[:, k].min()),
                }
            )
        return pd.DataFrame(rows)

    def by_bot(self):
        """Per bot: how far its shares sit from the reference's (mean and largest absolute
        difference, in points of win share; the pairs within 2 points) and how many verdicts
        it reverses. Two independent shares of ``n`` games each differ by about
        ``100 * sqrt(0.5 / n)`` points by chance alone (2.2 at 1,000 games a pair): "within
        2 points" needs several thousand games a pair to mean the bots agree."""
        import pandas as pd

        _, _, verdict = self._tests()
        r = self.bots.index(self.reference)
        rows = []
        for b, label in enumerate(self.labels):
            d = np.abs(self.shares[b] - self.shares[r]) * 100
            rev = np.sum(
                (verdict[b] != "even?") & (verdict[r] != "even?") & (verdict[b] != verdict[r])
            )
            rows.append(
                {
                    "bot": label,
                    "mean_abs_diff_points": float(d.mean()),
                    "max_abs_diff_points": float(d.max()),
                    "within_2_points": int(np.sum(d <= 2.0)),
                    "reversed_vs_reference": int(rev),
                    "decided": int(np.sum(verdict[b] != "even?")),
                }
            )
        return pd.DataFrame(rows)

    def to_dict(self) -> dict[str, Any]:
        return {
            "names": self.names,
            "bots": self.labels,
            "reference": self.labels[self.bots.index(self.reference)],
            "n_per_pair": self.n,
            "seed": self.seed,
            "by_bot": self.by_bot().to_dict(orient="records"),
            "pairs": self.verdicts().to_dict(orient="records"),
            "rows": self.frame().to_dict(orient="records"),
            "interrupted": self.interrupted,
            "bots_done": self.bots_done,
            "manifest": self.manifest,
        }

    def summary(self) -> str:
        v = self.verdicts()
        ref_label = self.labels[self.bots.index(self.reference)]
        lines = [
            f"Verdict robustness: {len(self.names)} dragons, {len(self.pairs)} pairs, "
            f"{self.n:,} games a pair under each of {len(self.bots)} bots, seed {self.seed}",
            *(
                [
                    f"  INTERRUPTED: {self.bots_done} of {len(self.bots)} bots finished; "
                    "the table is from those only"
                ]
                if self.interrupted
                else []
            ),
            "  verdict: A = the first dragon wins more, B = the second, even? = not shown "
            "either way (Holm over every pair and bot, 5%)",
            f"  pairs whose verdict flips between bots (one says A, another B): "
            f"{int(v['flips'].sum())} of {len(v)}",
            f"  pairs where a bot cannot decide what another decides: {int(v['moves'].sum())}",
            "",
            f"  {'bot':<14} {'decided':>7} {'reversed':>9} {'mean |diff|':>12} "
            f"{'max |diff|':>11} {'within 2':>9}   (vs {ref_label}, points of win share)",
        ]
        for _, r in self.by_bot().iterrows():
            lines.append(
                f"  {r['bot']:<14} {r['decided']:>7} {r['reversed_vs_reference']:>9} "
                f"{r['mean_abs_diff_points']:>12.1f} {r['max_abs_diff_points']:>11.1f} "
                f"{r['within_2_points']:>9}"
            )
        flips = v[v["flips"]].sort_values("spread", ascending=False)
        if len(flips):
            lines += ["", "  flipped verdicts (first dragon's win share per bot):"]
            for _, r in flips.iterrows():
                k = next(
                    q
                    for q, (i, j) in enumerate(self.pairs)
                    if self.names[i] == r["a"] and self.names[j] == r["b"]
                )
                shares = ", ".join(
                    f"{lab} {self.shares[b, k]:.3f}" for b, lab in enumerate(self.labels)
                )
                lines.append(f"    {r['a']} vs {r['b']}: {shares}")
        return "\n".join(lines)

    def plot(self, ax=None):
        """Every pair's win share under each bot, pairs sorted by the reference's share, with
        95% intervals; flipped pairs' labels in red. Returns the figure."""
        import matplotlib.pyplot as plt

        from ...report import plot_style

        se, _, _ = self._tests()
        z = NormalDist().inv_cdf(0.975)
        flips = self.verdicts()["flips"].to_numpy()
        ref = self.shares[self.bots.index(self.reference)]
        order = np.argsort(ref)
        with plot_style():
            if ax is None:
                fig, ax = plt.subplots(figsize=(9.5, 2.0 + 0.19 * len(self.pairs)))
            else:
                fig = ax.figure
            y = np.arange(len(order))
            nb = len(self.bots)
            markers = "osD^vP*X"
            for b, label in enumerate(self.labels):
                off = (b - (nb - 1) / 2) * 0.12
                ax.errorbar(
                    self.shares[b, order],
                    y + off,
                    xerr=z * se[b, order],
                    fmt=markers[b % len(markers)],
                    ms=4,
                    lw=0.8,
                    capsize=0,
                    label=label,
                )
            ax.axvline(0.5, color="0.3", lw=0.8, ls="--")
            ax.set_yticks(y)
            ax.set_yticklabels(
                [f"{self.names[self.pairs[k][0]]} v {self.names[self.pairs[k][1]]}" for k in order],
                fontsize=7,
            )
            for t, k in zip(ax.get_yticklabels(), order, strict=True):
                if flips[k]:
                    t.set_color("tab:red")
                    t.set_fontweight("bold")
            ax.set_ylim(-0.7, len(order) - 0.3)
            ax.set_xlim(0, 1)
            ax.set_xlabel("first dragon's win share (draws half), 95% interval")
            ax.set_title(
                f"Does the verdict depend on the bot? {len(self.pairs)} pairs, {self.n:,} games "
                f"each\n(red: the verdict flips between bots, Holm 5%)",
                fontsize=10,
            )
            ax.legend(
                loc="upper left",
                bbox_to_anchor=(1.01, 1.0),
                fontsize=8,
                title="bot",
                title_fontsize=8,
                frameon=False,
            )
            ax.grid(axis="x", alpha=0.3)
            fig.tight_layout()
        return fig


def robustness(
    dragons: Sequence | None = None,
    *,
    n: int,
    seed: int = 1,
    bots: Sequence[str] = DEFAULT_BOTS,
    reference: str = DEFAULT_REFERENCE,
    rules=None,
    progress: bool | None = False,
    checkpoint=None,
    records=None,
    threads: int | None = None,
) -> RobustnessResult:
    """Play the round robin of ``dragons`` (default: the twelve ready-made dragons) under each
    bot of ``bots`` (``n`` games a pair, the same seed for each) and compare the verdicts.

    ``reference`` (one of ``bots``) is the bot the others are measured from. ``checkpoint``
    (a path) keeps every finished block, one file per bot (``PATH.<bot>``), and the same call
    resumes. ``records`` (a ``.parquet`` or ``.csv`` path): every game's row, one file per
    bot beside it (``games.parquet`` -> ``games.hunter-2.parquet``, each the bot's
    :func:`~dragonsim.lords.analysis.study.tournament` records). An interruption keeps the bots
    whose round robin finished. ``threads``: numba threads (default all cores); the result does
    not depend on it.
    """
    from ...report import manifest
    from ..bots import policy_spec, policy_version
    from ..game.sheets import ROSTER
    from .study import tournament

    n = parse_count(n)
    if dragons is None or len(dragons) == 0:
        dragons = list(ROSTER)
    if isinstance(bots, str):
        bots = [b.strip() for b in bots.split(",") if b.strip()]
    bots = [policy_spec(b) for b in bots]
    if len(bots) < 2 or len(set(bots)) != len(bots):
        raise UserError(
            f"robustness compares two or more different bots, got {bots}; e.g. "
            f"{','.join(DEFAULT_BOTS)}"
        )
    reference = policy_spec(reference)
    if reference not in bots:
        raise UserError(f"the reference bot {reference!r} must be one of the bots {bots}")
    labels = [policy_version(b) for b in bots]
    if checkpoint is not None:
        # the path is checked here (a file path, not a folder, its folder exists); each bot's
        # round robin keeps its own file beside it
        from ...checkpoint import Checkpoint

        Checkpoint(checkpoint, {"command": "robustness"})
    if records is not None:
        from ...records import check_path

        check_path(records)
    results = []
    interrupted = False
    for b in bots:
        slug = b.replace("@", "-").replace(":", "-")
        rec = None
        if records is not None:
            stem, dot, ext = str(records).rpartition(".")
            rec = f"{stem}.{slug}.{ext}"
        res = tournament(
            dragons,
            n=n,
            seed=seed,
            policy=b,
            rules=rules,
            progress=progress,
            checkpoint=None if checkpoint is None else f"{checkpoint}.{slug}",
            records=rec,
            threads=threads,
        )
        if res.interrupted:
            interrupted = True
            break
        results.append(res)
    if not results:
        raise KeyboardInterrupt
    names = results[0].names
    k = len(names)
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    shares = np.array([[r.wins[i, j] / n for i, j in pairs] for r in results])
    done = len(results)
    if done < len(bots) and reference not in bots[:done]:
        reference = bots[0]
    return RobustnessResult(
        names,
        bots[:done],
        labels[:done],
        reference,
        n,
        seed,
        shares,
        pairs,
        manifest(
            command="robustness",
            rules_hash=results[0].manifest.get("rules_hash"),
            rules_overrides=results[0].manifest.get("rules_overrides"),
            options=results[0].manifest.get("options"),
            seed=seed,
            n_per_pair=n,
            bots=labels,
            reference=policy_version(reference),
            interrupted=interrupted,
        ),
        interrupted=interrupted,
        bots_done=done,
        tournaments=results,
    )
