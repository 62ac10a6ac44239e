"""Fair design-point prices for every option of the Cost Table, from games (the fit on their
counts, with no game in it, is :mod:`~dragonsim.lords.analysis.pricefit`).

The rulebook promises "a special points system which makes dragons of equivalent point values
equally matched" (Dragon Lords rulebook, Advanced Scenarios, "Using Your Own Dragons", on the
design rules of pp.26-27). :func:`prices` asks of each of the 26 options (body,
wings, breath, tooth and claw, rider: the Cost Table, p.26) what it is worth in games:

1. **Designs.** Every legal design costing ``budget - band .. budget + band`` (2,611 of them
   at 15 +- 3 DP: :func:`~dragonsim.lords.analysis.designs.legal_designs`, priced by the rules in
   force), or ``designs`` of them drawn uniformly without replacement. A share ``holdout`` of
   them (drawn by the seed) is kept out of the validation fit; the prices use them all.
2. **Games.** Every drawn design plays every dragon of the field (default: the twelve
   ready-made dragons, pp.30-35) ``n`` games from each seat, and its two neighbours in a cycle
   of the designs ``n`` games from each seat (one cycle through the fitted designs, one
   through the held-out ones; the permutation is fixed, but the designs it orders are the
   seed's split, so two seeds share few design-design pairings), all under one bot and one
   rules set. Every pairing plays from streams of its own (``common=True`` plays game ``k`` of
   every pairing from the streams ``(seed, k)``, common random numbers; see step 5 for why
   that is not the default here).
3. **Model.** Bradley-Terry on option indicators (a logistic model of the share of points,
   draws counting half): side 0 of a pairing scores with probability
   ``sigmoid(s_0 - s_1 + h)``, where a drawn design's strength is the sum of its options'
   strengths, ``s = sum_slot beta[option]``, plus a term for each pair of options of two
   slots the model holds (below), a field dragon's strength ``a_j`` is a free parameter of
   its own, and ``h`` is the first seat's advantage. Identification: the cheapest option of
   each slot (Very Light, Tiny, Cold, Blunt, no rider) is the slot's reference, ``beta = 0``,
   and a pair term involving a reference is 0. Fitted by maximum likelihood (Newton-Raphson
   on the aggregated counts). **Pair terms are chosen by the held-out designs**, not by cell
   tests: each pair of acting slots (body x wings, ...) is tried alone beside the additive
   model (16 terms at most), fitted without the held-out designs, and scored by the held-out
   designs' binomial log-likelihood; those that predict them better are added best first,
   each kept only if it still helps. (Under the basic rules at 15 DP, body x wings alone cuts
   the held-out squared error from about 6 to about 2 binomial variances.)
4. **Design points.** Strength identifies only differences within a slot (adding a constant to
   every option of a slot changes every design alike), and its unit is log-odds. An option's
   strength is its average over the band: its own coefficient plus each of its pair terms
   times the share of the designs holding it that hold the term's other option (what
   switching a design from the reference to the option buys, on the designs that hold it).
   Fair prices keep each slot's reference at its printed price and convert the rest at one
   exchange rate: ``fair(o) = cost(ref) + beta(o) / lam``, where ``lam`` (log-odds per design
   point) is the least-squares slope through the origin of the options' strengths on their
   printed premiums over the reference, ``cost(o) - cost(ref)``, over the slots that act in
   the game. So ``lam`` is what one printed design point buys on average, and a fair price
   says what an option would cost if every point bought that much. Where a pair term is in
   the model an option's price also depends on the other slot, and the report gives it on
   the designs holding each option of that slot (:attr:`PricesResult.pair_prices`: Very
   Heavy with each wing size). Under the basic rules riders do not act (the sequence of play
   has no rider phase, p.7), so the rider slot is fitted (its options must come out worth
   nothing: the negative control, step 6) but left out of ``lam``.
5. **Intervals.** A designer asks what an option is worth, not what the best additive fit to
   this band's designs happens to give it: what a design does beyond its options' sum (the
   model's misfit) spills through the budget into every option's fit, so it belongs in the
   interval with the games' noise. The coefficients' covariance is therefore clustered by
   design (a sandwich: the scores of every pairing a design plays summed into its cluster; a
   pairing of two designs in both, counted once; the designs treated as drawn from the
   builds a designer might make, no finite-population correction), and carried to the
   prices, the exchange rate and the pair prices by the delta method (exact gradients of
   ``beta / lam``, no random draws). The report prints beside each the half-width from the
   games' noise alone (the inverse Fisher information). Why not a bootstrap over designs:
   it estimates the same clustered variance with 200 refits where the sandwich needs none;
   ``bootstrap=B`` still runs one, as a check (``se_bootstrap``). Why it matters: with the
   games' noise alone the additive fit priced the inert riders of the basic rules at up to
   3.9 standard errors from zero (Wald p = 2e-5); the clustered intervals and the pair terms
   each bring them back to zero. 95% intervals are normal, +-1.96 standard deviations. The
   games are independent with a stream per pairing. On common random numbers they are not:
   every design then meets the field in the same ``2 n`` game situations per field dragon
   (placement, initiative, dice), and an option's strength is measured in those situations
   only. At 15 DP with ``n = 20`` two seeds on common random numbers gave fair prices up to
   1.7 DP apart (Very Heavy; Average, Heavy, Ice, Magma about 0.9), where the binomial
   standard error of a difference was 0.05 to 0.13 DP. So a price study plays every pairing
   from its own streams, and the pairing, which helps when two designs are compared on the
   same games, is left to the race (:mod:`~dragonsim.lords.race`).
6. **Verdicts and the negative control.** For each non-reference option, ``fair - printed``
   over its standard error is a z statistic (normal p-value); Holm's step-down procedure over
   the priced options (family-wise 5%) says which are over-priced (fair below printed) or
   under-priced. Where riders do not act, the Wald test that their strengths are all zero is
   the study's negative control, printed with the games-only covariance's for contrast.
7. **Fit.** The chosen model refitted on the designs not held out predicts the held-out
   designs' point shares against the field: the report gives the RMSE of observed minus
   predicted share, the ratio of the squared errors to the binomial variance of the games
   (about 1 when the model predicts as well as the dice allow; the additive model's beside
   it), and the calibration slope (observed on predicted log-odds, 1 when calibrated); the
   figure shows them. The same held-out designs chose the terms, so these figures flatter
   the chosen model slightly (at most six choices). What the model still misses: for every
   two acting slots (an option that does nothing cannot interact) and every pair of their
   options, the residual points of the designs holding both (full fit, games against the
   field), as a log-odds shift and a z score, Holm over every such cell.
8. **Raw counts.** :attr:`PricesResult.counts` and ``to_frame(level="pairing")`` hold every
   pairing's wins, losses and draws, so the fit can be redone with other tools
   (``docs/prices.md`` re-fits them with statsmodels).

Examples
--------
>>> r = prices(15, designs=200, n=100, seed=1)  # doctest: +SKIP
>>> r.to_frame()[["option", "printed", "fair", "lo", "hi", "verdict"]]  # doctest: +SKIP
"""

from __future__ import annotations

import math
import textwrap
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ... import defaults
from ...errors import UserError, check_int, check_seed
from ..game.sheets import rule_switches
from .designs import (
    SLOTS,
    field_text,
    legal_designs,
    pair_setup,
    play_pairs,
)
from .pricefit import ALPHA, analyse, fair_prices, fit_strengths, save_fit

__all__ = ["prices", "PricesResult", "fit_strengths", "fair_prices", "ALPHA"]

#: most drawn designs and most bootstrap replicates
MAX_DESIGNS = 5000
MAX_BOOTSTRAP = 10_000


# ------------------------------------------------------------------------------- the result
@dataclass
class PricesResult:
    """Fair prices per option (:meth:`to_frame`), the model's fit on held-out designs, where it
    fails (:attr:`interactions`), a figure (:meth:`plot`), the manifest."""

    budget: int
    band: tuple[int, int]
    policy: str
    n: int
    seed: int
    designs: list[str]  # the drawn designs' labels
    design_costs: list[int]
    held_out: list[bool]
    field_names: list[str]
    table: list[dict[str, Any]]
    lam: float
    lam_ci: tuple[float, float]
    seat: float
    calibration: dict[str, Any]
    interactions: list[dict[str, Any]]
    games: int
    seconds: float
    acting: list[str]
    bootstrap: int
    interval_method: str = ""
    legal_designs: int = 0
    #: the exchange rate's interval from the games' noise alone (``lam_ci`` adds the misfit)
    lam_ci_games: tuple[float, float] = (math.nan, math.nan)
    #: the slot pairs whose terms the held-out designs chose (empty: the additive model)
    terms: list[str] = field(default_factory=list)
    #: each pair of acting slots tried beside the additive model: its terms, the drop in
    #: held-out deviance it brings alone, whether it was kept
    selection: list[dict[str, Any]] = field(default_factory=list)
    #: for each chosen slot pair, an option's fair price on the designs holding each option
    #: of the other slot (Very Heavy with each wing size)
    pair_prices: list[dict[str, Any]] = field(default_factory=list)
    #: where riders do not act: the Wald test that their strengths are all zero
    negative_control: dict[str, Any] = field(default_factory=dict)
    manifest: dict[str, Any] = field(default_factory=dict)
    interrupted: bool = False
    requested: int | None = None
    heldout_points: dict[str, list] = field(default_factory=dict, repr=False)
    #: the games behind the fit: pairing ``k`` set entity ``pairings[k, 0]`` (side 0, the
    #: first seat) against ``pairings[k, 1]``, entities numbered as the drawn designs then the
    #: field; ``counts[k]`` is side 0's wins, side 1's wins and draws
    pairings: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), int), repr=False)
    counts: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), int), repr=False)
    #: what pricing one build needs of this fit, JSON-able (``python -m dragonsim price``
    #: reads it back; :func:`~dragonsim.lords.analysis.pricefit.save_fit` writes it): the
    #: model's columns, coefficients, clustered covariance, exchange-rate row, band-average
    #: strengths, references, and the band, rules hash and bot it holds for
    fit: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def finished(self) -> int:
        return self.games

    def save_fit(self, path) -> None:
        """Write :attr:`fit` to ``path`` (JSON), for ``python -m dragonsim price --fit``
        (:func:`~dragonsim.lords.analysis.pricefit.save_fit`)."""
        save_fit(self.fit, path)

    def to_frame(self, level: str = "option"):
        """``level="option"`` (default): one row per option: ``slot``, ``option``,
        ``printed``, ``fair`` (its average over the band) with ``lo`` / ``hi`` (95%, the games'
        noise and the model's misfit: clustered by design), ``strength`` (log-odds over the
        slot's reference, averaged over the band) and ``strength_se``, ``deviation`` (fair -
        printed) and its ``se``, ``se_games`` (the games' noise alone), ``se_bootstrap`` (with
        ``bootstrap`` replicates), ``p``, ``verdict`` (over-priced / under-priced / fair?
        after Holm; ``reference`` for the slot's reference), ``designs`` (drawn designs
        holding it).

        ``level="pair"``: the fair prices of :attr:`pair_prices` (an option on the designs
        holding each option of a slot it interacts with).

        ``level="pairing"``: the raw counts, one row per pairing and seat, to re-fit with other
        tools (the docs re-fit them with statsmodels): ``side_0`` and ``side_1`` (design labels
        or field dragons' names, side 0 the first seat), ``kind_0``/``kind_1`` (``design`` or
        ``field``), ``cost_0``/``cost_1`` (design points; NaN for a field dragon),
        ``held_out_0``/``held_out_1``, ``wins_0``, ``wins_1``, ``draws``, ``games``."""
        import pandas as pd

        if level == "option":
            return pd.DataFrame(self.table)
        if level == "pair":
            return pd.DataFrame(self.pair_prices)
        if level != "pairing":
            raise UserError(f"level must be 'option', 'pair' or 'pairing', got {level!r}")
        nd = len(self.designs)
        names = list(self.designs) + list(self.field_names)
        cost = np.array(list(self.design_costs) + [math.nan] * len(self.field_names), float)
        held = np.array(list(self.held_out) + [False] * len(self.field_names))
        a, b = self.pairings[:, 0], self.pairings[:, 1]
        c = self.counts
        return pd.DataFrame(
            {
                "side_0": [names[i] for i in a],
                "side_1": [names[i] for i in b],
                "kind_0": np.where(a < nd, "design", "field"),
                "kind_1": np.where(b < nd, "design", "field"),
                "cost_0": cost[a],
                "cost_1": cost[b],
                "held_out_0": held[a],
                "held_out_1": held[b],
                "wins_0": c[:, 0],
                "wins_1": c[:, 1],
                "draws": c[:, 2],
                "games": c.sum(axis=1),
            }
        )

    def flagged(self) -> list[dict[str, Any]]:
        """The options Holm calls over- or under-priced, largest deviation first."""
        rows = [r for r in self.table if r["verdict"] in ("over-priced", "under-priced")]
        return sorted(rows, key=lambda r: -abs(r["deviation"]))

    def to_dict(self) -> dict[str, Any]:
        return {
            "budget": self.budget,
            "band": list(self.band),
            "policy": self.policy,
            "n_per_seat": self.n,
            "seed": self.seed,
            "designs": [
                {"design": d, "cost": c, "held_out": h}
                for d, c, h in zip(self.designs, self.design_costs, self.held_out, strict=True)
            ],
            "field": self.field_names,
            "prices": self.table,
            "lambda_per_dp": self.lam,
            "lambda_ci": list(self.lam_ci),
            "lambda_ci_games": list(self.lam_ci_games),
            "terms": self.terms,
            "selection": self.selection,
            "pair_prices": self.pair_prices,
            "negative_control": self.negative_control,
            "legal_designs": self.legal_designs,
            "seat_advantage": self.seat,
            "calibration": self.calibration,
            "interactions": self.interactions,
            "games": self.games,
            "seconds": self.seconds,
            "acting_slots": self.acting,
            "bootstrap": self.bootstrap,
            "interval_method": self.interval_method,
            "interrupted": self.interrupted,
            "fit": self.fit,
            "pairings": {
                "entities": "drawn designs (designs[i]) then the field (field[i - len(designs)])",
                "side_0": self.pairings[:, 0].tolist(),
                "side_1": self.pairings[:, 1].tolist(),
                "wins_0": self.counts[:, 0].tolist(),
                "wins_1": self.counts[:, 1].tolist(),
                "draws": self.counts[:, 2].tolist(),
            },
            "manifest": self.manifest,
        }

    def summary(self) -> str:
        from ...report import rules_line

        lo, hi = self.band
        ndes = len(self.designs)
        lines = [
            f"Fair design-point prices at {self.budget} DP: {ndes} legal designs costing "
            f"{lo}..{hi}, each against {field_text(self.field_names)} and two other designs, "
            f"{self.n:,} games from each seat; bot "
            f"{self.policy}, seed {self.seed}",
            f"  {self.games:,} games in {self.seconds:.0f} s; "
            + rules_line(self.manifest.get("rules_hash"), self.manifest.get("rules_overrides")),
            *(
                [f"  INTERRUPTED: {self.games:,} games finished; the fit uses those"]
                if self.interrupted
                else []
            ),
            "  model: Bradley-Terry on option indicators (log-odds of a point, draws half), "
            "reference per slot = its cheapest option;",
            "    "
            + (
                f"with the pair terms the held-out designs chose: {', '.join(self.terms)}; "
                "a price is the option's average over the band"
                if self.terms
                else "additive (no pair term predicted the held-out designs better)"
            ),
            (
                f"  one printed design point buys {self.lam:.4f} log-odds [{self.lam_ci[0]:.4f}, "
                f"{self.lam_ci[1]:.4f}] (slots {', '.join(self.acting)}); fair = reference "
                "cost + strength / that"
                if self.lam > 0
                else f"  NO EXCHANGE RATE: strength does not grow with the printed cost in "
                f"these games (slope {self.lam:.4f} log-odds per point); no fair prices"
            ),
            f"  95% intervals: {self.interval_method}",
            "",
            f"  {'slot':<7} {'option':<17} {'printed':>7} {'fair':>6}  {'95% interval':>15}  "
            f"{'games only':>10}  {'fair-printed':>12}  verdict (Holm 5%)",
        ]
        lines += self._table_lines()
        lines += self._verdict_lines()
        lines += self._control_lines()
        lines += self._pair_lines()
        lines += self._fit_lines()
        return "\n".join(lines)

    def _table_lines(self) -> list[str]:
        out, slot = [], None
        for r in self.table:
            s = r["slot"] if r["slot"] != slot else ""
            slot = r["slot"]
            if r["verdict"] in ("reference", "not in the band"):
                fair = f"{r['fair']:>6.2f}" if math.isfinite(r["fair"]) else f"{'':>6}"
                out.append(
                    f"  {s:<7} {r['option']:<17} {r['printed']:>7} {fair}  "
                    f"{'(' + r['verdict'] + ')':>15}"
                )
                continue
            games_only = f"+-{1.96 * r['se_games']:.2f}"
            out.append(
                f"  {s:<7} {r['option']:<17} {r['printed']:>7} {r['fair']:>6.2f}  "
                f"[{r['lo']:>5.2f}, {r['hi']:>5.2f}]  {games_only:>10}"
                f"  {r['deviation']:>+12.2f}  {r['verdict']}"
            )
        return out

    def _verdict_lines(self) -> list[str]:
        fl = self.flagged()

        def listed(verdict):
            return ", ".join(
                f"{r['option']} {r['deviation']:+.1f}" for r in fl if r["verdict"] == verdict
            )

        return [
            "",
            "  over-priced (worth less than printed): " + (listed("over-priced") or "none"),
            "  under-priced (worth more than printed): " + (listed("under-priced") or "none"),
        ]

    def _control_lines(self) -> list[str]:
        nc = self.negative_control
        if not nc:
            return []
        verdict = "worth nothing, as they must be" if nc["p"] >= ALPHA else "NOT zero"
        return [
            f"  negative control: {nc['why']}: their strengths are {verdict} "
            f"(Wald chi2 {nc['chi2']:.1f} on {nc['df']} df, p {nc['p']:.2f}; with the games' "
            f"noise alone p {nc['p_games']:.2g})"
        ]

    def _pair_lines(self) -> list[str]:
        out = []
        for pair in self.terms:
            first, second = pair.split(" x ")
            rows = [r for r in self.pair_prices if r["slots"] == pair]
            withs = list(dict.fromkeys(r["with"] for r in rows))
            if not rows:
                continue
            out += [
                "",
                f"  {first} by {second} (fair price of the {first}, averaged over the designs "
                f"of the band with each {second}; '-' none):",
                f"    {'':<17}" + "".join(f"{w[:11]:>12}" for w in withs),
            ]
            for opt in dict.fromkeys(r["option"] for r in rows):
                cell = {r["with"]: r for r in rows if r["option"] == opt}
                out.append(
                    f"    {opt:<17}"
                    + "".join(
                        f"{cell[w]['fair']:>12.2f}" if w in cell else f"{'-':>12}" for w in withs
                    )
                )
        return out

    def _fit_lines(self) -> list[str]:
        c = self.calibration
        nh = int(sum(self.held_out))
        kept = [t for t in self.selection if t["kept"]]
        out = [
            "",
            f"  fit on {nh} held-out designs (model refitted without them), share of points "
            "against the field:",
            f"    RMSE observed - predicted {c['rmse']:.4f} (the games' own noise alone: "
            f"{c['noise_rmse']:.4f}); squared error / binomial variance {c['dispersion']:.2f} "
            f"(additive model: {c.get('additive_dispersion', math.nan):.2f}; 1 = as good as "
            "the dice allow);",
            f"    calibration slope {c['slope']:.3f} [{c['slope_lo']:.3f}, {c['slope_hi']:.3f}]"
            " (observed on predicted log-odds; 1 = calibrated)",
        ]
        if self.selection:
            out.append(
                "    pair terms tried (drop in held-out deviance alone): "
                + ", ".join(
                    f"{t['slots']} {t['deviance_drop']:+.0f}{' kept' if t['kept'] else ''}"
                    for t in self.selection
                )
            )
        if not kept and not self.selection:
            out.append("    no pair terms tried (no designs held out)")
        sig = [r for r in self.interactions if r["significant"]]
        by_pair: dict[str, int] = {}
        for r in sig:
            by_pair[r["slots"]] = by_pair.get(r["slots"], 0) + 1
        out.append(
            f"  beyond the model (Holm 5% over {c['cells']} option pairs of the slots that "
            "act): "
            + (
                ", ".join(f"{k} {v} cells" for k, v in sorted(by_pair.items(), key=lambda t: -t[1]))
                or "no significant interaction"
            )
        )
        for r in sig[:8]:
            out.append(
                f"    {r['a']} with {r['b']}: {r['shift']:+.3f} log-odds "
                f"({r['shift_dp']:+.1f} DP) beyond the model, z {r['z']:+.1f}, "
                f"{r['designs']} designs"
            )
        return out

    def plot(self):
        """Left: every option's fair price (dot, 95% interval) beside its printed cost
        (diamond), slot by slot, red when Holm calls it over-priced, blue under-priced. Right:
        the held-out designs' observed share of points against the field against the share
        the model predicts. Returns the figure."""
        import matplotlib.pyplot as plt

        from ...report import plot_style

        colours = {
            "over-priced": "tab:red",
            "under-priced": "tab:blue",
            "fair?": "0.35",
            "reference": "0.35",
            "not in the band": "0.35",
            "no price": "0.35",
        }
        with plot_style():
            fig, (ax, bx) = plt.subplots(
                1, 2, figsize=(11.5, 7.2), gridspec_kw={"width_ratios": [1.45, 1]}
            )
            y = []
            pos = 0.0
            prev = None
            for r in self.table:
                if prev is not None and r["slot"] != prev:
                    pos += 0.8
                y.append(pos)
                pos += 1
                prev = r["slot"]
            y = -np.array(y)
            for yy, r in zip(y, self.table, strict=True):
                col = colours[r["verdict"]]
                if math.isfinite(r["fair"]):  # from printed to fair: which way and how far
                    ax.plot([r["printed"], r["fair"]], [yy, yy], color=col, lw=0.8, alpha=0.35)
                ax.plot(r["printed"], yy, "D", mfc="none", mec="k", ms=6, zorder=3)
                if r["verdict"] == "reference":
                    ax.plot(r["fair"], yy, "o", mfc="white", mec=col, ms=5, zorder=4)
                    continue
                if not math.isfinite(r["fair"]):
                    continue
                ax.errorbar(
                    r["fair"],
                    yy,
                    xerr=[[r["fair"] - r["lo"]], [r["hi"] - r["fair"]]],
                    fmt="o",
                    color=col,
                    ms=5,
                    lw=1.4,
                    capsize=2,
                    zorder=4,
                )
            ax.set_yticks(y)
            ax.set_yticklabels([f"{r['slot']}: {r['option']}" for r in self.table], fontsize=8)
            for t, r in zip(ax.get_yticklabels(), self.table, strict=True):
                if r["verdict"] in ("over-priced", "under-priced"):
                    t.set_color(colours[r["verdict"]])
            ax.set_xlabel("design points")
            ax.grid(axis="x", alpha=0.3)
            ax.plot([], [], "D", mfc="none", mec="k", label="printed cost (p.26)")
            ax.plot(
                [],
                [],
                "o",
                color="0.35",
                label="fair price (band average), 95%\ninterval: games and misfit",
            )
            ax.plot([], [], "o", color="tab:red", label="over-priced (Holm 5%)")
            ax.plot([], [], "o", color="tab:blue", label="under-priced (Holm 5%)")
            ax.plot([], [], "o", mfc="white", mec="0.35", label="slot reference (fixed)")
            ax.legend(loc="lower right", fontsize=7.5, frameon=True, framealpha=0.9)
            ax.set_title(
                f"Fair price of each option at {self.budget} DP (bot {self.policy})\n"
                f"1 printed DP buys {self.lam:.3f} log-odds; {len(self.designs)} designs, "
                f"{self.games:,} games",
                fontsize=10,
            )
            hp = self.heldout_points
            pred = np.asarray(hp.get("pred", []))
            obs = np.asarray(hp.get("obs", []))
            se = np.asarray(hp.get("se", []))
            if pred.size:
                bx.errorbar(
                    pred, obs, yerr=1.96 * se, fmt="o", ms=3, lw=0.6, alpha=0.6, color="0.25"
                )
                lo = float(min(pred.min(), obs.min())) - 0.02
                hi = float(max(pred.max(), obs.max())) + 0.02
                bx.plot([lo, hi], [lo, hi], "--", color="0.3", lw=0.9, label="observed = predicted")
                bx.set_xlim(lo, hi)
                bx.set_ylim(lo, hi)
                bx.legend(loc="upper left", fontsize=8)
            c = self.calibration
            model = f"options + {', '.join(self.terms)} terms" if self.terms else "additive"
            bx.set_xlabel(
                "\n".join(textwrap.wrap(f"predicted share of points vs the field ({model})", 48)),
                fontsize=9,
            )
            bx.set_ylabel("observed share (95% interval of its games)")
            bx.set_title(
                f"{len(pred)} held-out designs: RMSE {c.get('rmse', math.nan):.3f}, "
                f"error/noise {c.get('dispersion', math.nan):.2f}\n"
                f"(additive model {c.get('additive_dispersion', math.nan):.2f}), "
                f"calibration slope {c.get('slope', math.nan):.2f}",
                fontsize=10,
            )
            bx.grid(alpha=0.3)
            bx.set_aspect("equal", adjustable="box")
            fig.tight_layout()
        return fig


# ------------------------------------------------------------------------------- the study
def prices(
    budget: int = 15,
    *,
    band: int = 3,
    designs: int | None = None,
    n: int = 20,
    seed: int = 1,
    policy: str = "hunter",
    rules=None,
    field_dragons: Sequence | None = None,
    holdout: float = 0.2,
    bootstrap: int = 0,
    common: bool = False,
    turn_limit: int = defaults.TURN_LIMIT,
    progress: bool | None = False,
    checkpoint=None,
    backend: str = "local",
    dask_client=None,
    threads: int | None = None,
    kernel: Callable[..., np.ndarray] | None = None,
) -> PricesResult:
    """Fair design-point prices of the 26 options at ``budget`` (the module docstring has the
    design, model, price conversion and intervals).

    Parameters
    ----------
    budget, band
        Designs are drawn from the legal ones costing ``budget - band .. budget + band``.
    designs, n
        How many designs to draw (default: every legal design of the band), and games per
        pairing per seat.
    seed
        Draws the designs and the hold-out split, and seeds the games.
    policy, rules, turn_limit
        The bot both sides play, the rules (a RuleSet or overrides; default the shipped
        basic rules), the turn limit.
    field_dragons
        The fixed opponents (default the twelve ready-made dragons).
    holdout, bootstrap
        The share of drawn designs held out of the validation fit and of the choice of pair
        terms; replicates of a bootstrap over designs that checks the clustered intervals
        (0, the default: none).
    common
        Play every pairing on common random numbers (default: each its own streams; the
        intervals assume independent games, module docstring step 5).
    progress, checkpoint, backend, dask_client, threads
        As for :func:`~dragonsim.runner.run_blocks` (``checkpoint``: a path; the same call
        resumes from it).
    kernel
        Replaces the engine's pairs kernel (same signature as
        :func:`~dragonsim.lords.analysis.designs.pairs_kernel`): a synthetic win model in tests.
    """
    from ...checkpoint import open_checkpoint
    from ..bots import policy_version
    from ..game.sheets import ROSTER, riders_in_play, sheet
    from ..inputs import _rules

    rs = _rules(rules)
    budget = check_int(budget, "budget", 4, 1000)
    band = check_int(band, "band", 0, 100)
    ndes = None if designs is None else check_int(designs, "designs", 10, MAX_DESIGNS)
    n = check_int(n, "n", 1, 10**7)
    seed = check_seed(seed)
    bootstrap = 0 if bootstrap == 0 else check_int(bootstrap, "bootstrap", 20, MAX_BOOTSTRAP)
    if not 0.0 <= float(holdout) < 0.9:
        raise UserError(f"holdout must be a share in 0..0.9, got {holdout!r}")
    lo, hi = _band(rs, budget, band)
    pool = legal_designs(lo, hi, rules=rs)
    rng = np.random.default_rng([seed, 0x50524943])
    drawn, held = _draw_designs(pool, ndes, holdout, rng)
    nd = len(drawn)
    fnames = list(ROSTER) if field_dragons is None else list(field_dragons)
    if len(fnames) < 2:
        raise UserError(f"the field needs at least two dragons, got {fnames}")
    fsheets = [sheet(f, rules=rs) for f in fnames]
    dsheets = [sheet(d.label, rules=rs) for d in drawn]
    setup = pair_setup(policy=policy, rules=rs, turn_limit=turn_limit)
    nf = len(fsheets)

    # entities: drawn designs 0..nd-1, field dragons nd..nd+nf-1
    ents = dsheets + fsheets
    pairs = _pairings(nd, nf, held)
    identity = _identity(budget, band, drawn, fsheets, setup.policy, seed, n, common, rs)
    section = open_checkpoint(checkpoint, identity, "games")
    t0 = time.perf_counter()
    counts, out = play_pairs(
        [(ents[a], ents[b]) for a, b in pairs],
        setup,
        n=n,
        seed=seed,
        common=common,
        kernel=kernel,
        progress=progress,
        checkpoint=section,
        label=f"games ({nd} designs, {len(pairs)} pairings)",
        backend=backend,
        dask_client=dask_client,
        threads=threads,
    )
    seconds = time.perf_counter() - t0
    acting = [s for s in SLOTS if s != "rider" or riders_in_play(rs)]
    fit = analyse(
        drawn,
        held,
        nf,
        np.array(pairs),
        counts,
        rs.get("lords.design_cost"),
        acting,
        rng,
        bootstrap,
        pool,
    )
    fit["fit"] = {
        **fit["fit"],
        "field": [s.name for s in fsheets],
        **_fit_identity(rs, budget, (lo, hi), setup, seed, n, nd, len(pool), counts),
    }
    return PricesResult(
        budget=budget,
        band=(lo, hi),
        policy=policy_version(setup.policy),
        n=n,
        seed=seed,
        designs=[d.label for d in drawn],
        design_costs=[d.cost for d in drawn],
        held_out=[bool(h) for h in held],
        field_names=[s.name for s in fsheets],
        games=int(counts.sum()),
        seconds=seconds,
        acting=acting,
        bootstrap=bootstrap,
        interval_method=_interval_method(nd, len(pool), bootstrap),
        legal_designs=len(pool),
        interrupted=out.interrupted,
        requested=n * len(pairs),
        manifest=_manifest(rs, seed, budget, (lo, hi), nd, n, common, setup, fsheets, out),
        pairings=np.array(pairs, dtype=np.int64).reshape(-1, 2),
        counts=np.asarray(counts, dtype=np.int64),
        **fit,
    )


def _manifest(rs, seed, budget, band, nd, n, common, setup, fsheets, out) -> dict[str, Any]:
    """The run's manifest: rules, seed, band, designs, games, bot, field."""
    from ...report import manifest
    from ..bots import policy_version

    return manifest(
        command="prices",
        rules_hash=rs.hash,
        rules_overrides=rs.overrides,
        options=rule_switches(rs),
        seed=seed,
        budget=budget,
        band=list(band),
        designs=nd,
        n_per_seat=n,
        common_random_numbers=bool(common),
        policy=policy_version(setup.policy),
        field=[s.name for s in fsheets],
        interrupted=out.interrupted,
    )


def _fit_identity(rs, budget, band, setup, seed, n, nd, npool, counts) -> dict[str, Any]:
    """What a stored fit holds for: the band, the rules (hash and overrides), the bot, and
    the games behind it (``price`` names them beside the fair cost it reads from the fit)."""
    from ..bots import policy_version

    return {
        "budget": budget,
        "band": list(band),
        "rules_hash": rs.hash,
        "rules_preset": rs.preset,
        "rules_overrides": rs.overrides,
        "policy": policy_version(setup.policy),
        "seed": seed,
        "n_per_seat": n,
        "designs": nd,
        "legal_designs": npool,
        "games": int(np.asarray(counts).sum()),
    }


def _identity(budget, band, drawn, fsheets, policy, seed, n, common, rs) -> dict[str, Any]:
    """What a prices run's checkpoint must match to resume."""
    return {
        "command": "prices",
        "budget": budget,
        "band": band,
        "designs": [d.label for d in drawn],
        "field": [s.name for s in fsheets],
        "policy": policy,
        "seed": seed,
        "n": n,
        "common": bool(common),
        "rules_hash": rs.hash,
    }


def _band(rs, budget: int, band: int) -> tuple[int, int]:
    """The design costs ``budget - band .. budget + band`` within the legal ones."""
    bounds = rs.get("lords.design_bounds")
    lo, hi = max(bounds["min"], budget - band), min(bounds["max"], budget + band)
    if lo > hi:
        raise UserError(
            f"no legal design costs {budget - band}..{budget + band} (a design costs "
            f"{bounds['min']}..{bounds['max']}, rulebook p.26)"
        )
    return lo, hi


def _draw_designs(pool, ndes: int | None, holdout: float, rng) -> tuple[list, np.ndarray]:
    """The designs played (``ndes`` drawn from ``pool`` by ``rng``, or all of them) and which of
    them are held out of the validation fit (a ``holdout`` share, drawn next)."""
    if ndes is None or ndes >= len(pool):
        drawn = list(pool)
    else:
        drawn = [pool[i] for i in np.sort(rng.choice(len(pool), size=ndes, replace=False))]
    held = np.zeros(len(drawn), dtype=bool)
    held[rng.choice(len(drawn), size=int(round(float(holdout) * len(drawn))), replace=False)] = True
    return drawn, held


def _pairings(nd: int, nf: int, held: np.ndarray) -> list[tuple[int, int]]:
    """The pairings (side 0, side 1) of designs ``0..nd-1`` and field dragons ``nd..nd+nf-1``:
    each design against each field dragon, then the fitted and the held-out designs each
    against the next in a cycle (the same for every seed); every pairing from both seats."""
    pairs: list[tuple[int, int]] = []
    for i in range(nd):
        for j in range(nf):
            pairs += [(i, nd + j), (nd + j, i)]
    cycle = np.random.default_rng(0x4359434C45)  # the cycles: the same for every seed
    for group in (np.flatnonzero(~held), np.flatnonzero(held)):
        order = cycle.permutation(group)
        if len(order) >= 3:
            for t in range(len(order)):
                a, b = int(order[t]), int(order[(t + 1) % len(order)])
                pairs += [(a, b), (b, a)]
    return pairs


def _interval_method(nd: int, npool: int, bootstrap: int) -> str:
    """How the prices' intervals were made, in words."""
    played = "every legal design of the band" if nd == npool else f"{nd} of {npool} legal designs"
    return (
        f"{played}; the games' noise and the model's misfit (covariance clustered by design, "
        "delta method); 'games only': the games' noise alone"
        + (f"; design bootstrap ({bootstrap} replicates) in se_bootstrap" if bootstrap else "")
    )
