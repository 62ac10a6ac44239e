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
   of the drawn designs (a fixed pseudo-random order, the same for every seed) ``n`` games
   from each seat, all under one bot and one rules set. Every pairing plays from streams of
   its own (``common=True`` plays game ``k`` of every pairing from the streams ``(seed, k)``,
   common random numbers; see step 5 for why that is not the default here).
3. **Model.** Bradley-Terry on option indicators (a logistic model of the share of points,
   draws counting half): side 0 of a pairing scores with probability
   ``sigmoid(s_0 - s_1 + h)``, where a drawn design's strength is the sum of its options'
   strengths, ``s = sum_slot beta[option]``, a field dragon's strength ``a_j`` is a free
   parameter of its own, and ``h`` is the first seat's advantage. Identification: the cheapest
   option of each slot (Very Light, Tiny, Cold, Blunt, no rider) is the slot's reference,
   ``beta = 0``; 21 option strengths, one per field dragon and ``h`` are fitted by maximum
   likelihood (Newton-Raphson on the aggregated counts).
4. **Design points.** Strength identifies only differences within a slot (adding a constant to
   every option of a slot changes every design alike), and its unit is log-odds. Fair prices
   keep each slot's reference at its printed price and convert the rest at one exchange rate:
   ``fair(o) = cost(ref) + beta(o) / lam``, where ``lam`` (log-odds per design point) is the
   least-squares slope through the origin of the options' fitted strengths on their printed
   premiums over the reference, ``cost(o) - cost(ref)``, over the slots that act in the game.
   So ``lam`` is what one printed design point buys on average, and a fair price says what an
   option would cost if every point bought that much. Under the basic rules riders do not act
   (the sequence of play has no rider phase, p.7), so the rider slot is fitted (its options
   should come out worth nothing) but left out of ``lam``: their printed costs say nothing
   about what a point buys in a game without riders.
5. **Intervals.** The prices estimate the additive model's best fit to *every* legal design
   of the band (each design weighted alike). With every design played, only the games'
   noise is left: its variance comes from the fit's covariance (the inverse Fisher
   information), carried to the prices by ``bootstrap`` draws of the strengths from their
   normal approximation. With a sample of the designs, which designs were drawn adds a part:
   the variance of a bootstrap over the drawn designs (designs resampled with replacement,
   every pairing of a drawn copy kept, the model refitted) times the finite-population
   correction ``1 - share`` (``share`` = drawn / legal), plus ``share`` times the games' part.
   95% intervals are normal, +-1.96 of that standard deviation. The binomial covariance
   treats games as independent, which they are with a stream per pairing. On common random
   numbers they are not: every design then meets the field in the same ``2 n`` game
   situations per field dragon (placement, initiative, dice), and an option's strength is
   measured in those situations only. At 15 DP with ``n = 20`` two seeds on common random
   numbers gave fair prices up to 1.7 DP apart (Very Heavy; Average, Heavy, Ice, Magma about
   0.9), where the binomial standard error of a difference was 0.05 to 0.13 DP (the mean
   squared z of the 21 differences was 52, against about 1 for honest intervals). So a price
   study plays every pairing from its own streams, and the pairing, which helps when two
   designs are compared on the same games, is left to the race (:mod:`~dragonsim.lords.
   race`).
6. **Verdicts.** For each non-reference option, ``fair - printed`` over its bootstrap standard
   error is a z statistic (normal p-value); Holm's step-down procedure over the 21 options
   (family-wise 5%) says which are over-priced (fair below printed) or under-priced.
7. **Fit.** The model refitted on the designs not held out predicts the held-out designs'
   point shares against the field: the report gives the RMSE of observed minus predicted
   share, the ratio of the squared errors to the binomial variance of the games (about 1 when
   the model predicts as well as the dice allow), and the calibration slope (observed on
   predicted log-odds, 1 when calibrated); the figure shows them. Where the additive model
   fails: for every two slots and every pair of their options, the residual points of the
   designs holding both (full fit, games against the field), as a log-odds shift and a z score,
   Holm over every such cell.

Examples
--------
>>> r = prices(15, designs=200, n=100, seed=1)  # doctest: +SKIP
>>> r.to_frame()[["option", "printed", "fair", "lo", "hi", "verdict"]]  # doctest: +SKIP
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

import numpy as np

from ... import defaults
from ...errors import UserError, check_int, check_seed
from ...stats import holm
from ..game.sheets import rule_switches
from .designs import (
    OPTIONS,
    SLOTS,
    field_text,
    legal_designs,
    option_matrix,
    pair_setup,
    play_pairs,
)
from .pricefit import (
    ALPHA,
    SEPARATED,
    _boot_prices,
    _calibration,
    _interactions,
    _nanvar,
    _option_index,
    _reference_costs,
    fair_prices,
    fit_strengths,
)

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
    manifest: dict[str, Any] = field(default_factory=dict)
    interrupted: bool = False
    requested: int | None = None
    heldout_points: dict[str, list] = field(default_factory=dict, repr=False)

    @property
    def finished(self) -> int:
        return self.games

    def to_frame(self):
        """One row per option: ``slot``, ``option``, ``printed``, ``fair`` with ``lo`` /
        ``hi`` (95%, bootstrap over designs), ``strength`` (log-odds over the slot's
        reference) and ``strength_se`` (the fit's), ``deviation`` (fair - printed) and its
        bootstrap ``se``, ``p``, ``verdict`` (over-priced / under-priced / fair? after Holm;
        ``reference`` for the slot's reference), ``designs`` (drawn designs holding it)."""
        import pandas as pd

        return pd.DataFrame(self.table)

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
            "seat_advantage": self.seat,
            "calibration": self.calibration,
            "interactions": self.interactions,
            "games": self.games,
            "seconds": self.seconds,
            "acting_slots": self.acting,
            "bootstrap": self.bootstrap,
            "interval_method": self.interval_method,
            "interrupted": self.interrupted,
            "manifest": self.manifest,
        }

    def summary(self) -> str:
        from ...report import rules_line

        lo, hi = self.band
        c = self.calibration
        ndes = len(self.designs)
        nh = int(sum(self.held_out))
        widths = [
            (r["hi"] - r["lo"]) / 2
            for r in self.table
            if r["verdict"] not in ("reference", "not in the band", "no price")
        ]
        widest = max(widths) if widths and all(math.isfinite(w) for w in widths) else math.nan
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
            (
                f"  one printed design point buys {self.lam:.4f} log-odds [{self.lam_ci[0]:.4f}, "
                f"{self.lam_ci[1]:.4f}] (slots {', '.join(self.acting)}); fair = reference "
                "cost + strength / that"
                if self.lam > 0
                else f"  NO EXCHANGE RATE: strength does not grow with the printed cost in "
                f"these games (slope {self.lam:.4f} log-odds per point); no fair prices"
            ),
            f"  95% intervals: {self.interval_method}; widest half-width {widest:.2f} DP",
            "",
            f"  {'slot':<7} {'option':<17} {'printed':>7} {'fair':>6}  {'95% interval':>15}  "
            f"{'fair-printed':>12}  verdict (Holm 5%)",
        ]
        slot = None
        for r in self.table:
            s = r["slot"] if r["slot"] != slot else ""
            slot = r["slot"]
            if r["verdict"] in ("reference", "not in the band"):
                lines.append(
                    f"  {s:<7} {r['option']:<17} {r['printed']:>7} {r['fair']:>6.2f}  "
                    f"{'(' + r['verdict'] + ')':>15}"
                )
                continue
            lines.append(
                f"  {s:<7} {r['option']:<17} {r['printed']:>7} {r['fair']:>6.2f}  "
                f"[{r['lo']:>5.2f}, {r['hi']:>5.2f}]  {r['deviation']:>+12.2f}  {r['verdict']}"
            )
        fl = self.flagged()
        lines += [
            "",
            "  over-priced (worth less than printed): "
            + (
                ", ".join(
                    f"{r['option']} {r['deviation']:+.1f}"
                    for r in fl
                    if r["verdict"] == "over-priced"
                )
                or "none"
            ),
            "  under-priced (worth more than printed): "
            + (
                ", ".join(
                    f"{r['option']} {r['deviation']:+.1f}"
                    for r in fl
                    if r["verdict"] == "under-priced"
                )
                or "none"
            ),
            "",
            f"  fit on {nh} held-out designs (model refitted without them), share of points "
            "against the field:",
            f"    RMSE observed - predicted {c['rmse']:.4f} (the games' own noise alone: "
            f"{c['noise_rmse']:.4f}); squared error / binomial variance {c['dispersion']:.2f} "
            "(1 = as good as the dice allow);",
            f"    calibration slope {c['slope']:.3f} [{c['slope_lo']:.3f}, {c['slope_hi']:.3f}]"
            " (observed on predicted log-odds; 1 = calibrated)",
        ]
        sig = [r for r in self.interactions if r["significant"]]
        by_pair: dict[str, int] = {}
        for r in sig:
            by_pair[r["slots"]] = by_pair.get(r["slots"], 0) + 1
        lines.append(
            f"  where the additive model fails (Holm 5% over {self.calibration['cells']} "
            "option pairs): "
            + (
                ", ".join(f"{k} {v} cells" for k, v in sorted(by_pair.items(), key=lambda t: -t[1]))
                or "no significant interaction"
            )
        )
        for r in sig[:8]:
            lines.append(
                f"    {r['a']} with {r['b']}: {r['shift']:+.3f} log-odds "
                f"({r['shift_dp']:+.1f} DP) beyond the sum, z {r['z']:+.1f}, "
                f"{r['designs']} designs"
            )
        return "\n".join(lines)

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
                label="fair price, 95% interval (most\nnarrower than the dot)",
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
            bx.set_xlabel("predicted share of points vs the field (additive fit)")
            bx.set_ylabel("observed share (95% interval of its games)")
            bx.set_title(
                f"{len(pred)} held-out designs: RMSE {c.get('rmse', math.nan):.3f}, "
                f"error/noise {c.get('dispersion', math.nan):.2f},\n"
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
    bootstrap: int = 200,
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
        The share of drawn designs held out of the validation fit; bootstrap replicates.
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
    from ...report import manifest
    from ..bots import policy_version
    from ..game.sheets import ROSTER, riders_in_play, sheet
    from ..inputs import _rules

    rs = _rules(rules)
    budget = check_int(budget, "budget", 4, 1000)
    band = check_int(band, "band", 0, 100)
    ndes = None if designs is None else check_int(designs, "designs", 10, MAX_DESIGNS)
    n = check_int(n, "n", 1, 10**7)
    seed = check_seed(seed)
    bootstrap = check_int(bootstrap, "bootstrap", 20, MAX_BOOTSTRAP)
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
    fit = _analyse(
        drawn,
        held,
        nf,
        np.array(pairs),
        counts,
        rs.get("lords.design_cost"),
        acting,
        rng,
        bootstrap,
        nd / len(pool),
    )
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
        interrupted=out.interrupted,
        requested=n * len(pairs),
        manifest=manifest(
            command="prices",
            rules_hash=rs.hash,
            rules_overrides=rs.overrides,
            options=rule_switches(rs),
            seed=seed,
            budget=budget,
            band=[lo, hi],
            designs=nd,
            n_per_seat=n,
            common_random_numbers=bool(common),
            policy=policy_version(setup.policy),
            field=[s.name for s in fsheets],
            interrupted=out.interrupted,
        ),
        **fit,
    )


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
    if nd == npool:
        return (
            f"every legal design of the band played; the games' noise from the fit's "
            f"covariance ({bootstrap} draws)"
        )
    return (
        f"{nd} of {npool} legal designs drawn: bootstrap over designs x "
        f"(1 - {nd / npool:.2f}) + the games' noise ({bootstrap} replicates)"
    )


def _analyse(
    drawn, held, nf, pairs, counts, costs, acting, rng, bootstrap, share
) -> dict[str, Any]:
    """Fit, bootstrap, verdicts, held-out calibration and interactions (see the module
    docstring); the fields of a :class:`PricesResult` the games decide."""
    nd = len(drawn)
    index = np.array([d.index for d in drawn])
    held_by = option_matrix(index).sum(axis=0)  # drawn designs holding each option
    # each slot's reference: its cheapest option some drawn design holds (the first, unless
    # the band leaves it out); options no drawn design holds are not priced
    refs = np.zeros(len(OPTIONS), dtype=bool)
    for slot in SLOTS:
        mine = [i for i, (s, _) in enumerate(OPTIONS) if s == slot and held_by[i] > 0]
        refs[min(mine, key=lambda i: (costs[slot][_option_index(*OPTIONS[i])], i))] = True
    free = np.flatnonzero(~refs & (held_by > 0))
    xo = option_matrix(index)[:, free]
    nfree = xo.shape[1]
    # entity rows: a design's free option indicators, a field dragon's own column
    ent = np.zeros((nd + nf, nfree + nf))
    ent[:nd, :nfree] = xo
    ent[nd:, nfree:] = np.eye(nf)
    a, b = pairs[:, 0], pairs[:, 1]
    x = np.hstack([ent[a] - ent[b], np.ones((len(pairs), 1))])  # last column: the seat
    games = counts.sum(axis=1).astype(float)
    points = counts[:, 0] + 0.5 * counts[:, 2]
    design_of = np.where(a < nd, a, -1), np.where(b < nd, b, -1)

    def full_beta(coef):
        beta = np.where(refs, 0.0, np.nan)
        beta[free] = coef[:nfree]
        return beta

    coef, cov = fit_strengths(x, points, games)
    if not np.all(np.isfinite(coef)) or np.max(np.abs(coef), initial=0.0) > SEPARATED:
        raise UserError(
            f"too few games to price the options: with {int(games.sum())} games over "
            f"{len(pairs)} pairings some option's designs won or lost every game, so its "
            "strength has no finite estimate; raise n (games a pairing, e.g. -n 200)"
        )
    beta = full_beta(coef)
    fair, lam = fair_prices(beta, costs, acting, refs)
    se_fit = np.where(refs, 0.0, np.nan)
    se_fit[free] = np.sqrt(np.clip(np.diag(cov)[:nfree], 0, None))

    # the games' noise: the fit's covariance, carried to the prices by drawing strengths
    try:
        draws = rng.multivariate_normal(coef, cov, size=bootstrap, method="cholesky")
    except np.linalg.LinAlgError:
        # a singular fit: options the drawn designs cannot tell apart, or too few games
        if np.linalg.matrix_rank(x[games > 0]) < x.shape[1]:
            raise UserError(
                f"{nd} designs cannot tell the {nfree} options they hold apart (a price for "
                "each needs designs that differ in it, more designs than options): raise "
                "--designs or leave it out to play every design of the band"
            ) from None
        raise UserError(
            "too few games to give the prices intervals (the fit's covariance is singular); "
            "raise n (games a pairing) or --designs"
        ) from None
    game_fair, game_lam = _boot_prices(draws, full_beta, costs, acting, refs)
    var_f = _nanvar(game_fair)
    var_l = float(_nanvar(game_lam))
    if share < 1.0:
        # which designs were drawn: a bootstrap over them (each drawn design gets a
        # multiplicity, a pairing the product), its variance times the finite-population
        # correction 1 - share; the games' own part of it is replaced by the fit's
        boot = np.zeros((bootstrap, len(coef)))
        for r in range(bootstrap):
            mult = rng.multinomial(nd, np.full(nd, 1.0 / nd)).astype(float)
            wa = np.where(design_of[0] >= 0, mult[np.maximum(design_of[0], 0)], 1.0)
            wb = np.where(design_of[1] >= 0, mult[np.maximum(design_of[1], 0)], 1.0)
            w = wa * wb
            boot[r], _ = fit_strengths(x, points * w, games * w, start=coef, iters=25, tol=1e-8)
        des_fair, des_lam = _boot_prices(boot, full_beta, costs, acting, refs)
        var_f = (1 - share) * _nanvar(des_fair) + share * var_f
        var_l = (1 - share) * float(_nanvar(des_lam)) + share * var_l
    zq = NormalDist().inv_cdf(1 - ALPHA / 2)
    sd = np.sqrt(var_f)
    lo_hi = np.vstack([fair - zq * sd, fair + zq * sd])
    lam_ci = (lam - zq * math.sqrt(var_l), lam + zq * math.sqrt(var_l))
    ref_cost, prem = _reference_costs(costs, refs)
    printed = ref_cost + prem
    dev = fair - printed
    with np.errstate(invalid="ignore", divide="ignore"):
        z = dev / sd
    pvals = [
        2 * (1 - NormalDist().cdf(abs(float(z[i])))) if np.isfinite(z[i]) else 1.0 for i in free
    ]
    rej = holm(pvals, alpha=ALPHA) if pvals else []
    table = []
    k = 0
    for i, (slot, name) in enumerate(OPTIONS):
        row = {
            "slot": slot,
            "option": name,
            "printed": int(printed[i]),
            "fair": float(fair[i]),
            "lo": float(lo_hi[0, i]),
            "hi": float(lo_hi[1, i]),
            "strength": float(beta[i]),
            "strength_se": float(se_fit[i]),
            "deviation": float(dev[i]),
            "se": float(sd[i]) if not refs[i] else 0.0,
            "p": 1.0,
            "verdict": "reference",
            "designs": int(held_by[i]),
        }
        if held_by[i] == 0:
            row.update(verdict="not in the band", p=math.nan, se=math.nan)
        elif not refs[i]:
            row["p"] = float(pvals[k])
            row["verdict"] = (
                "no price"
                if not math.isfinite(dev[i])
                else ("over-priced" if dev[i] < 0 else "under-priced")
                if rej[k]
                else "fair?"
            )
            k += 1
        else:
            row["lo"] = row["hi"] = float(fair[i])
        table.append(row)

    calibration, heldout_points = _calibration(x, points, games, pairs, held, nd)
    interactions, cells = _interactions(x, points, games, pairs, coef, index, nd, lam)
    calibration["cells"] = cells
    seat = float(coef[-1])
    return {
        "table": table,
        "lam": float(lam),
        "lam_ci": lam_ci,
        "seat": seat,
        "calibration": calibration,
        "interactions": interactions,
        "heldout_points": heldout_points,
    }
