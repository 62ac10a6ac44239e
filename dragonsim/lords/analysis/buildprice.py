"""One build's fair design-point cost, read from a stored band fit, and its score against the
field.

A designer asks "is my build overpriced?" of one build, and the price study
(:mod:`~dragonsim.lords.analysis.pricing`) answers for every option of a band of builds at once,
in minutes. Its fit holds everything one build's answer needs, so :func:`price` reads a stored
fit (``prices --save-fit``; the shipped presets' are in ``results/``, found by the budget, the
rules hash and the bot) and plays only the build's own games against the field:

* **Fair cost.** The model prices a design as the sum of its options' strengths plus the pair
  terms it holds (:mod:`~dragonsim.lords.analysis.pricefit`, steps 3-4 of the pricing docstring),
  each slot's reference option (its cheapest) at strength 0. So a build's fair cost is the
  reference options' printed costs plus its strength over the all-reference build, converted at
  the exchange rate: ``fair = sum_slot cost(ref) + s / lam`` with ``s = row @ coef`` (``row``: the
  build's free options and pair terms, :func:`~dragonsim.lords.analysis.pricefit.design_matrix`)
  and ``lam = lam_row @ coef``. The all-reference build costs exactly the references' sum, and
  a build one option away from it costs the other references plus that option's fair price
  (when no pair term touches it). Its 95% interval is the delta method on the stored covariance
  (clustered by design, so it holds the model's misfit beside the games' noise; exact gradients,
  :func:`~dragonsim.lords.analysis.pricefit.delta_prices`). Unlike the study's band-average
  prices, this is the price of *this* build: its pair terms count as it holds them.
* **Verdict.** ``fair - printed`` over its standard error is a z statistic: over-priced (fair
  below printed) or under-priced at 5% two-sided, else priced fairly within the interval.
* **Options.** Each option's contribution: its own strength plus half of each pair term it
  forms with another option of the build (the Shapley split of a two-way interaction: the
  contributions add up to the fair cost exactly), at the exchange rate, beside its printed cost;
  the reference options contribute their printed cost. Holm over the build's options says which
  over- or under-price it. The option's band-average fair price (the study's table) is beside
  it.
* **Score.** The build against the field (default the twelve ready-made dragons) from both
  seats, ``n`` games each, on common random numbers
  (:func:`~dragonsim.lords.analysis.fieldscore.gauntlet`): its share of the points with a 95%
  interval.

Examples
--------
>>> r = price("body=Heavy,wings=Large,breath=Magma,claws=Dull", rules="advanced")  # doctest: +SKIP
>>> r.summary()  # doctest: +SKIP
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np

from ...errors import UserError, read_json
from ...stats import holm
from .designs import OPTIONS, SLOTS, field_text, option_matrix
from .fieldscore import DEFAULT_N, gauntlet, p_text
from .pricefit import (
    ALPHA,
    FIT_FORMAT,
    Model,
    delta_prices,
    design_matrix,
    option_label,
    save_fit,
)

__all__ = ["price", "PriceResult", "build_cost", "find_fit", "load_fit", "save_fit", "FIT_DIR"]

#: where the stored fits of the shipped presets are (``prices-*-fit.json``)
FIT_DIR = Path(__file__).resolve().parents[3] / "results"
#: the budget a fit is looked up for when none is given
DEFAULT_BUDGET = 15
#: a stored fit is at most this large (a fit with every pair term holds a 130 x 130 covariance)
MAX_FIT_BYTES = 16 * 1024 * 1024
#: the keys a stored fit must have
_FIT_KEYS = (
    "format",
    "columns",
    "free",
    "terms",
    "slot_pairs",
    "references",
    "reference_costs",
    "coef",
    "cov",
    "lam_row",
    "band_strengths",
    "field",
    "budget",
    "band",
    "rules_hash",
    "policy",
)
_LABELS = {option_label(i): i for i in range(len(OPTIONS))}


# ------------------------------------------------------------------------ the stored fits
def load_fit(path) -> dict[str, Any]:
    """A stored fit from ``path``, checked field by field (a UserError naming the first
    thing wrong)."""
    fit = read_json(path, "price fit", limit=MAX_FIT_BYTES)
    check_fit(fit, f"price fit {str(path)!r}")
    return fit


def check_fit(fit: Any, what: str = "price fit") -> None:
    """A UserError unless ``fit`` is a usable stored fit: its format, its keys, every option
    it names, and the shapes of its coefficients, covariance and rows agreeing."""
    if not isinstance(fit, Mapping):
        raise UserError(f"{what} is not a price fit (a JSON object from prices --save-fit)")
    if fit.get("format") != FIT_FORMAT:
        raise UserError(
            f"{what} has format {fit.get('format')!r}, not {FIT_FORMAT!r}: make it again with "
            "prices --save-fit"
        )
    missing = [k for k in _FIT_KEYS if k not in fit]
    if missing:
        raise UserError(f"{what} lacks {', '.join(missing)}: make it again with prices --save-fit")
    names = list(fit["free"]) + list(fit["references"]) + [x for t in fit["terms"] for x in t]
    unknown = sorted({x for x in names if x not in _LABELS})
    if unknown:
        raise UserError(f"{what} names unknown options {', '.join(unknown)}")
    try:
        coef = np.asarray(fit["coef"], dtype=float)
        cov = np.asarray(fit["cov"], dtype=float)
        lam_row = np.asarray(fit["lam_row"], dtype=float)
        band = np.asarray(fit["band_strengths"], dtype=float)
    except (TypeError, ValueError):
        raise UserError(f"{what}: coef, cov, lam_row and band_strengths must be numbers") from None
    p = len(fit["free"]) + len(fit["terms"]) + len(fit["field"]) + 1
    shapes = {
        "coef": (coef.shape, (p,)),
        "cov": (cov.shape, (p, p)),
        "lam_row": (lam_row.shape, (p,)),
        "band_strengths": (band.shape, (len(OPTIONS), p)),
    }
    for key, (got, want) in shapes.items():
        if got != want:
            raise UserError(f"{what}: {key} has shape {got}, the model's columns need {want}")
    if set(fit["reference_costs"]) != set(SLOTS):
        raise UserError(f"{what}: reference_costs must give a cost for each of {', '.join(SLOTS)}")


def find_fit(budget: int, rules, policy: str, folder=None) -> tuple[dict[str, Any], str]:
    """The stored fit in ``folder`` (default :data:`FIT_DIR`, files ``*-fit.json``) for
    ``budget``, the rules hash of ``rules`` and the bot ``policy`` (a versioned name,
    ``hunter-5``), and its path; a UserError saying which ``prices`` command makes one when
    none matches."""
    folder = Path(FIT_DIR if folder is None else folder)
    for path in sorted(folder.glob("*-fit.json")) if folder.is_dir() else []:
        try:
            fit = load_fit(path)
        except UserError:
            continue  # another fit's format: not this one
        if (fit["budget"], fit["rules_hash"], fit["policy"]) == (budget, rules.hash, policy):
            return fit, _shown(path)
    raise UserError(
        f"no stored price fit for {budget} DP under rules hash {rules.hash} with bot {policy} "
        f"in {_shown(folder)}; make one (a minute or two on 2 cores) with "
        f"`{make_fit_command(budget, rules, policy, folder)}` (or pass another with --fit FILE)"
    )


def make_fit_command(budget: int, rules, policy: str, folder=None) -> str:
    """The ``prices`` command line that saves a fit for ``budget``, ``rules`` and ``policy``
    where :func:`find_fit` looks."""
    from ...rules import PRESET_NAMES, game_rules

    preset = next(
        (p for p in PRESET_NAMES if game_rules("lords", preset=p).hash == rules.hash), None
    )
    flag = "" if preset == "basic" else f" --rules {preset or 'FILE'}"
    # a rules file's fit is named by its hash, never by a preset's name it would overwrite
    suffix = {"basic": "", None: f"-{rules.hash}"}.get(preset, f"-{preset}".replace("+", "-"))
    from ..bots import policy_version

    default = policy == policy_version("hunter")  # a bot's label is also its --policy
    bot_flag = "" if default else f" --policy {policy}"
    bot_suffix = "" if default else f"-{policy.replace(':', '-')}"
    name = f"prices-{budget}{suffix}{bot_suffix}-fit.json"
    out = _shown(Path(FIT_DIR if folder is None else folder) / name)
    return f"python -m dragonsim prices --budget {budget}{flag}{bot_flag} --save-fit {out}"


def _shown(path) -> str:
    """``path`` relative to the working folder when it is below it (``results/...`` from the
    repository's root), else as it is."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


# ------------------------------------------------------------------------ a build's cost
def _model(fit: Mapping[str, Any]) -> Model:
    """The stored fit's model (its free options, pair terms and slot pairs, field size)."""
    return Model(
        np.array([_LABELS[o] for o in fit["free"]], dtype=np.int64),
        [(_LABELS[u], _LABELS[v]) for u, v in fit["terms"]],
        [tuple(p) for p in fit["slot_pairs"]],
        len(fit["field"]),
    )


def build_cost(fit: Mapping[str, Any], index: Sequence[int]) -> dict[str, Any]:
    """The fair cost of the design with option indices ``index`` (one per slot, :data:`SLOTS`
    order) under a stored fit, with its interval, and each option's contribution (module
    docstring). Returns ``{"fair", "se", "lo", "hi", "strength", "options": [...], "terms":
    [...]}``; a UserError when the fit's designs never held one of its options."""
    model = _model(fit)
    coef = np.asarray(fit["coef"], dtype=float)
    cov = np.asarray(fit["cov"], dtype=float)
    lam_row = np.asarray(fit["lam_row"], dtype=float)
    band = np.asarray(fit["band_strengths"], dtype=float)
    refs = {_LABELS[r] for r in fit["references"]}
    ind = option_matrix([list(index)])[0]
    held = [int(i) for i in np.flatnonzero(ind)]
    unpriced = [option_label(o) for o in held if o not in refs and o not in model.free]
    if unpriced:
        raise UserError(
            f"the fit's designs never held {', '.join(unpriced)}, so it has no price for it; "
            "make a fit whose band holds it (prices --budget B --band W --save-fit FILE)"
        )
    # the build against the all-reference build (every column of a reference is 0): its row
    row = design_matrix(model, np.vstack([ind, np.zeros_like(ind)]), np.array([[0, 1]]))[0]
    row[-1] = 0.0  # no seat
    nfree = len(model.free)
    free_col = {int(o): k for k, o in enumerate(model.free)}
    shares = np.zeros((len(held), len(coef)))  # each option's Shapley share of the row
    for r, o in enumerate(held):
        if o in free_col:
            shares[r, free_col[o]] = 1.0
        for k, (u, v) in enumerate(model.terms):
            if o in (u, v) and row[nfree + k]:
                shares[r, nfree + k] = 0.5
    rates, var = delta_prices(np.vstack([row, shares, band[held]]), lam_row, coef, cov)
    ref_cost = {s: float(c) for s, c in fit["reference_costs"].items()}
    z = NormalDist().inv_cdf(1 - ALPHA / 2)
    fair = sum(ref_cost.values()) + float(rates[0])
    se = math.sqrt(float(var[0]))
    options = []
    for r, o in enumerate(held):
        slot = OPTIONS[o][0]
        f = ref_cost[slot] + float(rates[1 + r])
        s = math.sqrt(float(var[1 + r]))
        options.append(
            {
                "slot": slot,
                "option": OPTIONS[o][1],
                "reference": o in refs,
                "fair": f,
                "lo": f - z * s,
                "hi": f + z * s,
                "se": s,
                "band_fair": ref_cost[slot] + float(rates[1 + len(held) + r]),
            }
        )
    terms = [
        {
            "a": option_label(u),
            "b": option_label(v),
            "strength": float(coef[nfree + k]),
            "dp": float(coef[nfree + k] / (lam_row @ coef)),
        }
        for k, (u, v) in enumerate(model.terms)
        if row[nfree + k]
    ]
    return {
        "fair": fair,
        "se": se,
        "lo": fair - z * se,
        "hi": fair + z * se,
        "strength": float(row @ coef),
        "options": options,
        "terms": terms,
    }


def _verdict(deviation: float, se: float) -> tuple[float, str]:
    """The two-sided p of ``deviation`` (fair - printed) and the verdict at 5%."""
    if not se > 0:
        return (1.0, "priced fairly") if deviation == 0 else (0.0, _side(deviation))
    p = 2 * (1 - NormalDist().cdf(abs(deviation) / se))
    return p, _side(deviation) if p < ALPHA else "priced fairly (within its interval)"


def _side(deviation: float) -> str:
    return "over-priced" if deviation < 0 else "under-priced"


# ------------------------------------------------------------------------------- the result
@dataclass
class PriceResult:
    """One build's fair cost from a stored fit (with its interval, verdict and each option's
    contribution: :meth:`to_frame`), its score against the field, and the manifest."""

    build: str
    cost: int
    fair: float
    lo: float
    hi: float
    se: float
    deviation: float
    p: float
    verdict: str
    options: list[dict[str, Any]]
    terms: list[dict[str, Any]]
    fit_source: str
    fit_info: dict[str, Any]
    score: dict[str, Any]
    by_field: list[dict[str, Any]]
    field_names: list[str]
    n: int
    seed: int
    policy: str
    games: int
    seconds: float
    manifest: dict[str, Any] = field(default_factory=dict)
    interrupted: bool = False
    requested: int | None = None

    @property
    def finished(self) -> int:
        return self.games

    def to_frame(self, level: str = "option"):
        """``level="option"`` (default): one row per option of the build: ``slot``,
        ``option``, ``printed``, ``fair`` (its contribution to the build's fair cost: own
        strength and half of each pair term with the build's other options, at the exchange
        rate) with ``lo`` / ``hi`` (95%) and ``se``, ``deviation`` (fair - printed), ``p``,
        ``verdict`` (Holm 5% over the build's options; ``reference`` for a slot's reference),
        ``band_fair`` (the option's fair price averaged over the fit's band).

        ``level="field"``: the build's score against each field dragon (both seats)."""
        import pandas as pd

        if level == "option":
            return pd.DataFrame(self.options)
        if level == "field":
            return pd.DataFrame(self.by_field)
        raise UserError(f"level must be 'option' or 'field', got {level!r}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "build": self.build,
            "printed": self.cost,
            "fair": self.fair,
            "ci": [self.lo, self.hi],
            "se": self.se,
            "deviation": self.deviation,
            "p": self.p,
            "verdict": self.verdict,
            "options": self.options,
            "pair_terms": self.terms,
            "fit": {"source": self.fit_source, **self.fit_info},
            "score": self.score,
            "by_field": self.by_field,
            "field": self.field_names,
            "n_per_seat": self.n,
            "seed": self.seed,
            "policy": self.policy,
            "games": self.games,
            "seconds": self.seconds,
            "interrupted": self.interrupted,
            "manifest": self.manifest,
        }

    def summary(self) -> str:
        from ...report import interrupted_line, rules_line

        f = self.fit_info
        lo, hi = f["band"]
        lines = [
            f"Fair design-point cost of {self.build}",
            f"  from the stored fit {self.fit_source}: {f['budget']} DP band ({lo}..{hi} DP, "
            f"{f.get('designs', '?')} designs, {f.get('games', 0):,} games, seed "
            f"{f.get('seed', '?')}), rules hash {f['rules_hash']}, bot {f['policy']}",
            *(
                [f"  NOTE: it costs {self.cost} DP, outside the fit's band: an extrapolation"]
                if not lo <= self.cost <= hi
                else []
            ),
            f"  printed {self.cost} DP, fair {self.fair:.2f} DP [{self.lo:.2f}, {self.hi:.2f}]: "
            f"fair - printed {self.deviation:+.2f} DP, {p_text(self.p)}: {self.verdict} (5%)",
            "",
            f"  {'slot':<7} {'option':<17} {'printed':>7} {'fair here':>9}  {'95% interval':>15}"
            f"  {'fair-printed':>12}  {'band avg':>8}  verdict (Holm 5%)",
        ]
        for r in self.options:
            if r["reference"]:
                lines.append(
                    f"  {r['slot']:<7} {r['option']:<17} {r['printed']:>7} {r['fair']:>9.2f}  "
                    f"{'(reference)':>15}"
                )
                continue
            lines.append(
                f"  {r['slot']:<7} {r['option']:<17} {r['printed']:>7} {r['fair']:>9.2f}  "
                f"[{r['lo']:>5.2f}, {r['hi']:>5.2f}]  {r['deviation']:>+12.2f}  "
                f"{r['band_fair']:>8.2f}  {r['verdict']}"
            )
        lines += self._term_lines() + self._most_lines()
        s = self.score
        lines += [
            "",
            f"  score against {field_text(self.field_names)}: {s['score']:.3f} "
            f"[{s['lo']:.3f}, {s['hi']:.3f}] of the points (draws half; {self.n:,} games a "
            f"dragon from each seat, {self.games:,} games on common random numbers in "
            f"{self.seconds:.1f} s; bot {self.policy}, seed {self.seed})",
            "  "
            + rules_line(self.manifest.get("rules_hash"), self.manifest.get("rules_overrides")),
            *interrupted_line(self),
        ]
        return "\n".join(lines)

    def _term_lines(self) -> list[str]:
        if not self.terms:
            return ["  no pair term of the model joins two of its options"]
        return [
            "  pair terms it holds (split half to each option): "
            + ", ".join(f"{t['a']} x {t['b']} {t['dp']:+.2f} DP" for t in self.terms)
        ]

    def _most_lines(self) -> list[str]:
        priced = [r for r in self.options if not r["reference"]]
        over = sorted((r for r in priced if r["deviation"] < 0), key=lambda r: r["deviation"])
        under = sorted((r for r in priced if r["deviation"] > 0), key=lambda r: -r["deviation"])

        def listed(rows):
            return ", ".join(
                f"{r['option']} {r['deviation']:+.2f}{'' if r['verdict'] != 'fair?' else ' (?)'}"
                for r in rows
            )

        return [
            "  most over-price it (worth less than printed): " + (listed(over) or "none"),
            "  most under-price it (worth more than printed): " + (listed(under) or "none"),
        ]


# ------------------------------------------------------------------------------- the study
def price(
    build,
    *,
    budget: int | None = None,
    rules=None,
    policy: str = "hunter",
    fit=None,
    n: int = DEFAULT_N,
    seed: int = 1,
    field: Sequence | None = None,
    folder=None,
    progress: bool | None = False,
    threads: int | None = None,
    kernel: Callable[..., Any] | None = None,
) -> PriceResult:
    """The fair design-point cost of ``build`` from a stored band fit, and its score against
    the field (the module docstring says how).

    Parameters
    ----------
    build
        A ready-made name or inline design (``body=Heavy,wings=Large,breath=Magma,claws=Dull``).
    budget
        The band fit to read (default 15 DP; with ``fit`` given, the fit's own).
    rules, policy
        The rules (a RuleSet, overrides or a preset's name) and the bot: a stored fit must have
        been made under both (its rules hash and versioned bot).
    fit
        A stored fit: a path (``prices --save-fit``) or the dict
        (:attr:`~dragonsim.lords.analysis.pricing.PricesResult.fit`); default the one in
        ``folder`` (default ``results/``) for the budget, rules and bot.
    n, seed, field
        Games per field dragon from each seat, their streams, the field (default the twelve
        ready-made dragons).
    progress, threads, kernel
        As for :func:`~dragonsim.lords.analysis.fieldscore.gauntlet`.
    """
    from ..bots import policy_version
    from ..game.sheets import sheet
    from ..inputs import _rules, resolve_policies

    rs = _rules(rules)
    s = sheet(build, rules=rs)
    bot = policy_version(resolve_policies(policy)[0])
    fit, source = _the_fit(fit, budget, rs, bot, folder)
    cost = build_cost(fit, [s.body_i, s.wings_i, s.breath_i, s.claws_i, s.rider_i])
    g = gauntlet(
        [s],
        field=field,
        n=n,
        seed=seed,
        policy=policy,
        rules=rs,
        progress=progress,
        threads=threads,
        kernel=kernel,
    )
    deviation = cost["fair"] - s.cost
    p, verdict = _verdict(deviation, cost["se"])
    return PriceResult(
        build=s.name,
        cost=int(s.cost),
        fair=cost["fair"],
        lo=cost["lo"],
        hi=cost["hi"],
        se=cost["se"],
        deviation=deviation,
        p=p,
        verdict=verdict,
        options=_option_rows(cost["options"], rs),
        terms=cost["terms"],
        fit_source=source,
        fit_info=_fit_info(fit),
        score={k: v for k, v in g.scores[0].items() if k != "entrant"},
        by_field=g.by_field,
        field_names=g.field_names,
        n=g.n,
        seed=g.seed,
        policy=g.policy,
        games=g.games,
        seconds=g.seconds,
        interrupted=g.interrupted,
        requested=g.requested,
        manifest={**g.manifest, "command": "price", "build": s.name, "fit": _fit_info(fit)},
    )


def _the_fit(fit, budget, rs, bot: str, folder) -> tuple[dict[str, Any], str]:
    """The fit to price with and where it came from: found by budget, rules hash and bot, or
    the one given, checked against them."""
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int)):
        raise UserError(f"budget must be a whole number, got {budget!r}")
    if fit is None:
        return find_fit(DEFAULT_BUDGET if budget is None else budget, rs, bot, folder)
    if isinstance(fit, Mapping):
        check_fit(fit)
        source = "(given)"
    else:
        source = str(fit)
        fit = load_fit(fit)
    b = fit["budget"] if budget is None else budget
    make = make_fit_command(b, rs, bot, folder)
    if fit["rules_hash"] != rs.hash:
        raise UserError(
            f"price fit {source} was made under rules hash {fit['rules_hash']}, not the rules in "
            f"force ({rs.hash}): give the --rules it was made under, or make one with `{make}`"
        )
    if fit["policy"] != bot:
        raise UserError(
            f"price fit {source} was made with bot {fit['policy']}, not {bot}: give "
            f"--policy {fit['policy'].split('-')[0]}, or make one with `{make}`"
        )
    if fit["budget"] != b:
        raise UserError(
            f"price fit {source} is of the {fit['budget']} DP band, not {b} DP: drop --budget, "
            f"or make one with `{make}`"
        )
    return fit, source


def _fit_info(fit: Mapping[str, Any]) -> dict[str, Any]:
    """The stored fit's identity, for the report and the manifest."""
    keys = ("budget", "band", "rules_hash", "rules_preset", "policy", "seed", "n_per_seat")
    return {
        **{k: fit.get(k) for k in keys},
        **{k: fit.get(k) for k in ("designs", "legal_designs", "games")},
        "terms": [" x ".join(p) for p in fit["slot_pairs"]],
        "lambda_per_dp": fit.get("lam"),
    }


def _option_rows(options: list[dict[str, Any]], rs) -> list[dict[str, Any]]:
    """The build's options with their printed costs under ``rs``, deviations and Holm's
    verdicts over the priced ones (a reference is priced at its printed cost by
    construction)."""
    from .pricefit import _option_index

    costs = rs.get("lords.design_cost")
    rows = []
    for r in options:
        printed = int(costs[r["slot"]][_option_index(r["slot"], r["option"])])
        dev = r["fair"] - printed
        p = 1.0 if r["reference"] else _verdict(dev, r["se"])[0]
        rows.append({**r, "printed": printed, "deviation": dev, "p": p, "verdict": "reference"})
    priced = [r for r in rows if not r["reference"]]
    for r, real in zip(priced, holm([r["p"] for r in priced], alpha=ALPHA), strict=True):
        r["verdict"] = _side(r["deviation"]) if real else "fair?"
    return rows
