"""The statistics behind fair prices: the logistic (Bradley-Terry) fit of point shares on option
indicators, the conversion of strengths to design points, and the checks of the additive model
(calibration on held-out designs, option pairs beyond the sum).

:mod:`~dragonsim.lords.analysis.pricing` plays the games and reports; this module holds the
arithmetic on their counts, with no game in it (its module docstring, steps 3-6, says what each
part estimates and why).
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from statistics import NormalDist
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from ...stats import holm
from .designs import OPTIONS, SLOTS, option_matrix

#: the family-wise error of the verdicts (Holm) and one minus the intervals' level
ALPHA = 0.05

#: a fitted strength beyond this many log-odds (odds of 160,000 to 1) means the games separate:
#: some option won or lost every game it played, and the fit has no finite answer
SEPARATED = 12.0


def fit_strengths(
    x: np.ndarray,
    points: np.ndarray,
    games: np.ndarray,
    *,
    start: np.ndarray | None = None,
    iters: int = 50,
    tol: float = 1e-9,
) -> tuple[np.ndarray, np.ndarray]:
    """Maximum-likelihood logistic fit of point shares: ``points / games ~ sigmoid(x @ b)``.

    ``x``: float [rows, p]; ``points``: float [rows] (wins + draws / 2); ``games``: float
    [rows] (a bootstrap passes weighted counts). Newton-Raphson with a 1e-9 ridge (only to keep
    a column no row touches at 0), stopping when no coefficient moves by ``tol``. Returns
    ``(b, covariance)``, the covariance the inverse Fisher information.

    >>> x = np.array([[1.0], [-1.0]])
    >>> b, _ = fit_strengths(x, np.array([75.0, 25.0]), np.array([100.0, 100.0]))
    >>> round(float(b[0]), 4) == round(math.log(3), 4)
    True
    """
    x = np.ascontiguousarray(x, dtype=np.float64)
    points = np.ascontiguousarray(points, dtype=np.float64)
    games = np.ascontiguousarray(games, dtype=np.float64)
    p = x.shape[1]
    b = np.zeros(p) if start is None else np.array(start, dtype=np.float64)
    info = np.eye(p)
    for _ in range(iters):
        grad, info = _newton_terms(x, b, points, games)
        info += 1e-9 * np.eye(p)
        step = np.linalg.solve(info, grad - 1e-9 * b)
        b = b + step
        if np.max(np.abs(step)) < tol:
            break
    return b, np.linalg.pinv(info)


@njit(cache=True)
def _newton_terms(x, b, points, games):
    """The log-likelihood's gradient and Fisher information at ``b``, one pass over the rows.

    A serial loop, not BLAS: the multi-threaded BLAS of a shared 2-core machine took a
    second and more for one 52,000 x 34 product (threads spinning against the engine's)."""
    n, p = x.shape
    grad = np.zeros(p)
    info = np.zeros((p, p))
    for r in range(n):
        eta = 0.0
        for j in range(p):
            eta += x[r, j] * b[j]
        eta = min(30.0, max(-30.0, eta))
        mu = 1.0 / (1.0 + math.exp(-eta))
        g = points[r] - games[r] * mu
        w = games[r] * mu * (1.0 - mu)
        for j in range(p):
            xj = x[r, j]
            if xj == 0.0:
                continue
            grad[j] += xj * g
            wx = w * xj
            for k in range(j, p):
                info[j, k] += wx * x[r, k]
    for j in range(p):
        for k in range(j):
            info[j, k] = info[k, j]
    return grad, info


@njit(cache=True)
def _linear(x, b):
    """``x @ b`` without BLAS (see :func:`_newton_terms`)."""
    n, p = x.shape
    out = np.zeros(n)
    for r in range(n):
        s = 0.0
        for j in range(p):
            s += x[r, j] * b[j]
        out[r] = s
    return out


def fair_prices(
    beta: np.ndarray,
    costs: dict[str, Sequence[int]],
    acting: Sequence[str],
    refs: np.ndarray | None = None,
) -> tuple[np.ndarray, float]:
    """Fair prices of the 26 options from their strengths (reference options 0).

    ``beta``: float [26] (:data:`~dragonsim.lords.analysis.designs.OPTIONS` order; NaN for an option
    no design holds); ``costs``: the rule ``lords.design_cost``; ``acting``: the slots whose
    options act in the game (they set the exchange rate); ``refs``: bool [26], one reference
    per slot (default each slot's first, cheapest option). Returns ``(fair [26], lam)``:
    ``fair = cost(ref) + beta / lam`` with ``lam`` the slope through the origin of ``beta``
    on the printed premium ``cost - cost(ref)`` over the acting slots (module docstring, step
    4); NaN prices when ``lam <= 0`` (strength does not grow with the printed price: no
    exchange rate).

    >>> costs = {"body": [1, 2, 3, 4, 5], "wings": [1, 2, 3, 4, 5], "breath": [1, 2, 3, 4, 5],
    ...          "claws": [1, 2, 3, 4, 5], "rider": [0, 1, 2, 3, 4, 5]}
    >>> beta = 0.1 * np.array([0, 1, 2, 3, 4] * 4 + [0] * 6)
    >>> fair, lam = fair_prices(beta, costs, SLOTS[:4])
    >>> round(lam, 6), [round(float(f), 6) for f in fair[:5]], float(fair[-1])
    (0.1, [1.0, 2.0, 3.0, 4.0, 5.0], 0.0)
    """
    refs = _REF if refs is None else refs
    ref, prem = _reference_costs(costs, refs)
    mask = np.array([s in acting for s, _ in OPTIONS]) & np.isfinite(beta)
    den = float(np.sum(prem[mask] ** 2))
    lam = float(np.sum(beta[mask] * prem[mask]) / den) if den > 0 else math.nan
    if not lam > 0:
        return np.where(refs, ref, math.nan), lam
    return ref + beta / lam, lam


def _reference_costs(costs, refs=None) -> tuple[np.ndarray, np.ndarray]:
    """Per option: its slot's reference cost, and its premium over it."""
    refs = _REF if refs is None else refs
    printed = np.array([costs[s][_option_index(s, o)] for s, o in OPTIONS], dtype=float)
    slot_ref = {s: printed[i] for i, (s, _) in enumerate(OPTIONS) if refs[i]}
    ref = np.array([slot_ref[s] for s, _ in OPTIONS])
    return ref, printed - ref


def _option_index(slot: str, name: str) -> int:
    return [o for s, o in OPTIONS if s == slot].index(name)


_REF = np.array([_option_index(s, o) == 0 for s, o in OPTIONS])  # each slot's first


def _sigmoid(v):
    return 1.0 / (1.0 + np.exp(-np.clip(v, -30, 30)))


def _calibration(x, points, games, pairs, held, nd):
    """Refit without the held-out designs; predict their share of points against the field."""
    a, b = pairs[:, 0], pairs[:, 1]
    in_held = (np.where(a < nd, held[np.minimum(a, nd - 1)], False)) | (
        np.where(b < nd, held[np.minimum(b, nd - 1)], False)
    )
    empty = {
        "designs": 0,
        "rmse": math.nan,
        "noise_rmse": math.nan,
        "dispersion": math.nan,
        "slope": math.nan,
        "slope_lo": math.nan,
        "slope_hi": math.nan,
    }
    if not held.any():
        return empty, {}
    coef, _ = fit_strengths(x[~in_held], points[~in_held], games[~in_held])
    mu = _sigmoid(_linear(np.ascontiguousarray(x), coef))
    pred, obs, var, se = [], [], [], []
    for d in np.flatnonzero(held):
        # the design's side of its games against the field (side 0 or side 1)
        s0 = (a == d) & (b >= nd)
        s1 = (b == d) & (a >= nd)
        g = games[s0].sum() + games[s1].sum()
        if g <= 0:
            continue
        o = points[s0].sum() + (games[s1] - points[s1]).sum()
        e = (games[s0] * mu[s0]).sum() + (games[s1] * (1 - mu[s1])).sum()
        v = (games[s0] * mu[s0] * (1 - mu[s0])).sum() + (games[s1] * mu[s1] * (1 - mu[s1])).sum()
        pred.append(e / g)
        obs.append(o / g)
        var.append(v / g**2)
        se.append(math.sqrt(max(v, 1e-12)) / g)
    pred, obs, var = np.array(pred), np.array(obs), np.array(var)
    if not len(pred):
        return empty, {}
    err = obs - pred
    lp = np.log(pred / (1 - pred))
    lo_ = np.log(np.clip(obs, 1e-6, 1 - 1e-6) / np.clip(1 - obs, 1e-6, 1))
    # weighted least squares of observed on predicted log-odds (weights: inverse variance)
    wt = (pred * (1 - pred)) ** 2 / np.maximum(var, 1e-12)
    xm = np.average(lp, weights=wt)
    ym = np.average(lo_, weights=wt)
    sxx = float(np.sum(wt * (lp - xm) ** 2))
    slope = float(np.sum(wt * (lp - xm) * (lo_ - ym)) / sxx) if sxx > 0 else math.nan
    resid = lo_ - ym - slope * (lp - xm)
    dof = max(1, len(lp) - 2)
    s2 = float(np.sum(wt * resid**2) / dof)
    sse = math.sqrt(s2 / sxx) if sxx > 0 else math.nan
    z = NormalDist().inv_cdf(1 - ALPHA / 2)
    cal = {
        "designs": int(len(pred)),
        "rmse": float(np.sqrt(np.mean(err**2))),
        "noise_rmse": float(np.sqrt(np.mean(var))),
        "dispersion": float(np.mean(err**2 / var)),
        "slope": slope,
        "slope_lo": slope - z * sse,
        "slope_hi": slope + z * sse,
    }
    return cal, {"pred": pred.tolist(), "obs": obs.tolist(), "se": np.sqrt(var).tolist()}


def _interactions(x, points, games, pairs, coef, index, nd, lam, slots=SLOTS):
    """Residual points of the designs holding each pair of options from two of ``slots`` (the
    slots that act: an option that does nothing cannot interact) against the field, under the
    chosen model's fit: a log-odds shift (residual / information), a z score, and Holm over
    every cell with a design."""
    a, b = pairs[:, 0], pairs[:, 1]
    mu = _sigmoid(_linear(np.ascontiguousarray(x), coef))
    res = np.zeros(nd)
    info = np.zeros(nd)
    s0 = (a < nd) & (b >= nd)
    s1 = (b < nd) & (a >= nd)
    np.add.at(res, a[s0], points[s0] - games[s0] * mu[s0])
    np.add.at(res, b[s1], (games[s1] - points[s1]) - games[s1] * (1 - mu[s1]))
    w = games * mu * (1 - mu)
    np.add.at(info, a[s0], w[s0])
    np.add.at(info, b[s1], w[s1])
    from .designs import _slot_options

    opts = _slot_options()
    cells = []
    for i, j in itertools.combinations(range(len(SLOTS)), 2):
        if SLOTS[i] not in slots or SLOTS[j] not in slots:
            continue
        for u in range(len(opts[SLOTS[i]])):
            for v in range(len(opts[SLOTS[j]])):
                sel = (index[:, i] == u) & (index[:, j] == v)
                k = int(sel.sum())
                if k == 0 or info[sel].sum() <= 0:
                    continue
                r, f = float(res[sel].sum()), float(info[sel].sum())
                cells.append(
                    {
                        "slots": f"{SLOTS[i]} x {SLOTS[j]}",
                        "a": f"{SLOTS[i]}={opts[SLOTS[i]][u]}",
                        "b": f"{SLOTS[j]}={opts[SLOTS[j]][v]}",
                        "designs": k,
                        "shift": r / f,
                        "shift_dp": (r / f) / lam if lam and lam > 0 else math.nan,
                        "z": r / math.sqrt(f),
                    }
                )
    pv = [2 * (1 - NormalDist().cdf(abs(c["z"]))) for c in cells]
    rej = holm(pv, alpha=ALPHA)
    for c, p, s in zip(cells, pv, rej, strict=True):
        c["p"] = p
        c["significant"] = bool(s)
    cells.sort(key=lambda c: -abs(c["z"]))
    return cells, len(cells)


# ------------------------------------------------------------------- the model and its terms
class Model(NamedTuple):
    """The columns of a fit: ``free`` (the priced options' indices in
    :data:`~dragonsim.lords.analysis.designs.OPTIONS`, one column each), ``terms`` (pairs of
    options from two slots, one column each: the strength a design holding both has beyond
    the sum), ``slot_pairs`` (the slot pairs whose terms are in), then one column per field
    dragon and the seat."""

    free: np.ndarray
    terms: list[tuple[int, int]]
    slot_pairs: list[tuple[str, str]]
    nf: int

    @property
    def p(self) -> int:
        return len(self.free) + len(self.terms) + self.nf + 1


def model_for(ind: np.ndarray, refs: np.ndarray, nf: int, slot_pairs=()) -> Model:
    """The model with every non-reference option some design holds and, for each slot pair
    of ``slot_pairs``, a term per pair of their non-reference options that some design holds
    together (``ind``: the drawn designs' option indicators, float [nd, 26])."""
    held = ind.sum(axis=0) > 0
    free = np.flatnonzero(~refs & held)
    terms = []
    for s1, s2 in slot_pairs:
        for u in free:
            for v in free:
                if OPTIONS[u][0] == s1 and OPTIONS[v][0] == s2 and (ind[:, u] * ind[:, v]).any():
                    terms.append((int(u), int(v)))
    return Model(free, terms, list(slot_pairs), nf)


def design_matrix(model: Model, ind: np.ndarray, pairs: np.ndarray) -> np.ndarray:
    """One row per pairing: side 0's columns minus side 1's, and 1 in the seat column
    (entities: the drawn designs, then the field dragons)."""
    nd, nfree, nt = ind.shape[0], len(model.free), len(model.terms)
    ent = np.zeros((nd + model.nf, model.p - 1))
    ent[:nd, :nfree] = ind[:, model.free]
    for k, (u, v) in enumerate(model.terms):
        ent[:nd, nfree + k] = ind[:, u] * ind[:, v]
    ent[nd:, nfree + nt :] = np.eye(model.nf)
    a, b = pairs[:, 0], pairs[:, 1]
    return np.hstack([ent[a] - ent[b], np.ones((len(pairs), 1))])


def option_strengths(model: Model, ind: np.ndarray) -> np.ndarray:
    """The linear map from a fit's coefficients to every option's strength over its slot's
    reference, averaged over the band (float [26, p]): an option's own coefficient plus, for
    each term it is in, the term's times the share of the designs holding the option that
    hold the term's other option. References and options no design holds are zero rows."""
    m = np.zeros((len(OPTIONS), model.p))
    nfree = len(model.free)
    for k, o in enumerate(model.free):
        m[o, k] = 1.0
    holding = ind.sum(axis=0)
    for k, (u, v) in enumerate(model.terms):
        both = float((ind[:, u] * ind[:, v]).sum())
        m[u, nfree + k] = both / holding[u]
        m[v, nfree + k] = both / holding[v]
    return m


def pair_strengths(model: Model, u: int, v: int, ind: np.ndarray) -> np.ndarray:
    """The linear map from the coefficients to option ``u``'s strength averaged over the
    designs of ``ind`` (float [k, 26] indicators) holding both ``u`` and ``v`` (float [p]): its
    own coefficient, the term of the pair if the model has one, and each other term of ``u``
    times the share of those designs that hold its other option."""
    row = np.zeros(model.p)
    if u in model.free:
        row[int(np.flatnonzero(model.free == u)[0])] = 1.0
    both = (ind[:, u] * ind[:, v]) > 0
    if not both.any():
        return row
    for k, (a, b) in enumerate(model.terms):
        if u in (a, b):
            w = b if a == u else a
            row[len(model.free) + k] = float(ind[both, w].mean())
    return row


def exchange_row(m: np.ndarray, costs, acting, refs, held) -> tuple[np.ndarray, np.ndarray]:
    """The exchange rate as a linear map of the coefficients (``lam = row @ coef``: the slope
    through the origin of the band-average strengths ``m @ coef`` on the printed premiums over
    the acting slots, step 4), and every option's reference cost."""
    ref, prem = _reference_costs(costs, refs)
    mask = np.array([s in acting for s, _ in OPTIONS]) & held
    den = float(np.sum(prem[mask] ** 2))
    if den <= 0:
        return np.zeros(m.shape[1]), ref
    return (prem * mask) @ m / den, ref


def delta_prices(rows: np.ndarray, lam_row: np.ndarray, coef: np.ndarray, cov: np.ndarray):
    """Strengths ``s = rows @ coef`` turned into design points ``s / lam`` (``lam = lam_row @
    coef``), with their variances by the delta method: the gradient of ``s / lam`` is
    ``rows / lam - s / lam**2 * lam_row``. Returns ``(s / lam, var)``; NaN where ``lam <= 0``."""
    s = rows @ coef
    lam = float(lam_row @ coef)
    if not lam > 0:
        nan = np.full(len(s), math.nan)
        return nan, nan
    grad = rows / lam - np.outer(s / lam**2, lam_row)
    var = np.einsum("ij,jk,ik->i", grad, cov, grad)
    return s / lam, np.clip(var, 0.0, None)


# -------------------------------------------------------------------- the misfit's variance
def design_covariance(x, points, games, coef, cov, pairs, nd) -> np.ndarray:
    """The covariance of the coefficients clustered by design (a sandwich): the scores of every
    pairing a design plays are summed into the design's cluster, and the meat is the sum of
    the clusters' outer products, so what a design does beyond its options' sum (the model's
    misfit) counts as noise alongside the games'. A pairing of two drawn designs belongs to
    both clusters (dyadic clustering, Fafchamps and Gubert 2007): its scores enter both sums,
    and the outer product of the pair's own sum is taken off once, so no pair of pairings is
    counted twice. The field dragons are fixed opponents, not clusters. Small-sample factor
    ``nd / (nd - 1)``."""
    a, b = pairs[:, 0], pairs[:, 1]
    mu = _sigmoid(_linear(np.ascontiguousarray(x), coef))
    score = x * (points - games * mu)[:, None]
    ma, mb = a < nd, b < nd
    sums = np.zeros((nd, x.shape[1]))
    np.add.at(sums, a[ma], score[ma])
    np.add.at(sums, b[mb], score[mb])
    meat = sums.T @ sums
    both = ma & mb
    if both.any():
        key = np.minimum(a[both], b[both]) * nd + np.maximum(a[both], b[both])
        _, inv = np.unique(key, return_inverse=True)
        joint = np.zeros((int(inv.max()) + 1, x.shape[1]))
        np.add.at(joint, inv, score[both])
        meat -= joint.T @ joint
    return cov @ meat @ cov * (nd / max(nd - 1, 1))


def wald(beta: np.ndarray, cov: np.ndarray) -> tuple[float, int, float]:
    """The Wald test that every coefficient of ``beta`` is zero: ``(chi2, df, p)``."""
    from scipy.stats import chi2

    df = len(beta)
    if df == 0:
        return math.nan, 0, math.nan
    stat = float(beta @ np.linalg.pinv(cov) @ beta)
    return stat, df, float(chi2.sf(stat, df))


# ------------------------------------------------------------------------ choosing the terms
def heldout_loglik(model: Model, ind, pairs, points, games, held) -> np.ndarray | None:
    """Each held-out design's binomial log-likelihood of its pairings under ``model`` fitted
    without the held-out designs (a pairing of two held-out designs counts for its first
    seat's design); None with none held out."""
    nd = ind.shape[0]
    a, b = pairs[:, 0], pairs[:, 1]
    ha = np.where(a < nd, held[np.minimum(a, nd - 1)], False)
    hb = np.where(b < nd, held[np.minimum(b, nd - 1)], False)
    out = ha | hb
    if not out.any() or out.all():
        return None
    x = design_matrix(model, ind, pairs)
    coef, _ = fit_strengths(x[~out], points[~out], games[~out])
    mu = np.clip(_sigmoid(_linear(np.ascontiguousarray(x[out]), coef)), 1e-12, 1 - 1e-12)
    ll = points[out] * np.log(mu) + (games[out] - points[out]) * np.log(1 - mu)
    owner = np.where(ha[out], a[out], b[out])
    per = np.zeros(nd)
    np.add.at(per, owner, ll)
    return per[held]


#: a slot pair's terms are kept when they raise the held-out log-likelihood by this many
#: standard errors (over the designs): one-sided 2.5%, so noise rarely adds a term
KEEP_Z = 1.96
#: the designs are split in this many folds, each held out once, to choose the terms
FOLDS = 5


def crossval_loglik(model: Model, ind, pairs, points, games, folds) -> np.ndarray | None:
    """Every design's held-out log-likelihood under ``model``, each fold of designs
    (``folds``: int [nd]) predicted by the fit on the others; None with fewer than two folds."""
    k = int(folds.max()) + 1 if len(folds) else 0
    if k < 2:
        return None
    out = np.zeros(ind.shape[0])
    for f in range(k):
        held = folds == f
        out[held] = heldout_loglik(model, ind, pairs, points, games, held)
    return out


def choose_terms(ind, refs, nf, pairs, points, games, folds, acting) -> tuple[Model, list]:
    """The model the held-out designs choose (``folds``: each design's fold; every fold is held
    out once): every pair of acting slots is tried alone beside the additive model; those
    that raise the held-out log-likelihood by :data:`KEEP_Z` standard errors (the spread of
    the gain over the designs) are added one by one, best first, each kept only if it still
    does so beside the ones kept before. Returns the model and the trials (slot pair, terms,
    the drop in held-out deviance alone, its z, and whether it was kept)."""
    base = model_for(ind, refs, nf)
    ll0 = crossval_loglik(base, ind, pairs, points, games, folds)
    if ll0 is None:
        return base, []

    def gain(m, ref):
        d = crossval_loglik(m, ind, pairs, points, games, folds) - ref
        se = float(np.std(d, ddof=1) * math.sqrt(len(d)))
        return float(d.sum()), (float(d.sum()) / se if se > 0 else 0.0)

    trials = []
    for pair in itertools.combinations([s for s in SLOTS if s in acting], 2):
        m = model_for(ind, refs, nf, [pair])
        if not m.terms:
            continue
        g, z = gain(m, ll0)
        trials.append(
            {
                "slots": f"{pair[0]} x {pair[1]}",
                "pair": pair,
                "terms": len(m.terms),
                "deviance_drop": 2 * g,
                "z": z,
                "kept": False,
            }
        )
    trials.sort(key=lambda t: -t["z"])
    chosen, current = [], ll0
    for t in trials:
        if t["z"] < KEEP_Z:
            break
        m = model_for(ind, refs, nf, chosen + [t["pair"]])
        per = crossval_loglik(m, ind, pairs, points, games, folds)
        d = per - current
        se = float(np.std(d, ddof=1) * math.sqrt(len(d)))
        if se > 0 and d.sum() / se >= KEEP_Z:
            chosen.append(t["pair"])
            current = per
            t["kept"] = True
    for t in trials:
        del t["pair"]
    return model_for(ind, refs, nf, chosen), trials


# ---------------------------------------------------------------------------- the analysis
def analyse(drawn, held, nf, pairs, counts, costs, acting, rng, bootstrap=0, band=None) -> dict:
    """Fit, intervals, verdicts, held-out calibration, the terms the held-out designs choose,
    the negative control and the interactions (see :mod:`~dragonsim.lords.analysis.pricing`'s
    docstring); the fields of a ``PricesResult`` the games decide. ``band``: every legal
    design of the band (default the drawn ones), over which an option's strength is
    averaged: over the band, not the draw, so the price a sample estimates does not move with
    the sample."""
    nd = len(drawn)
    index = np.array([d.index for d in drawn])
    ind = option_matrix(index)
    held_by = ind.sum(axis=0)  # drawn designs holding each option
    refs = _references(held_by, costs)
    games = counts.sum(axis=1).astype(float)
    points = counts[:, 0] + 0.5 * counts[:, 2]

    additive = model_for(ind, refs, nf)
    x_add = design_matrix(additive, ind, pairs)
    coef_add = _fit_or_explain(x_add, points, games, len(additive.free), nd, len(pairs))
    folds = rng.permutation(nd) % FOLDS if nd >= 2 * FOLDS else np.zeros(nd, dtype=int)
    model, selection = choose_terms(ind, refs, nf, pairs, points, games, folds, acting)
    x = design_matrix(model, ind, pairs) if model.terms else x_add
    coef, cov = fit_strengths(x, points, games, start=None if model.terms else coef_add)
    cov_d = design_covariance(x, points, games, coef, cov, pairs, nd)

    band_ind = ind if band is None else option_matrix([d.index for d in band])
    m = option_strengths(model, band_ind)
    lam_row, ref = exchange_row(m, costs, acting, refs, held_by > 0)
    lam = float(lam_row @ coef)
    rate, var_d = delta_prices(m, lam_row, coef, cov_d)
    _, var_g = delta_prices(m, lam_row, coef, cov)
    fair = ref + rate
    var_lam = [max(0.0, float(lam_row @ c @ lam_row)) for c in (cov_d, cov)]
    boot_sd = _design_bootstrap(x, points, games, pairs, nd, coef, m, lam_row, rng, bootstrap)

    zq = NormalDist().inv_cdf(1 - ALPHA / 2)
    printed = ref + _reference_costs(costs, refs)[1]
    sd, sd_g = np.sqrt(var_d), np.sqrt(var_g)
    beta = m @ coef
    table = _verdicts(fair, sd, sd_g, boot_sd, printed, beta, m, cov_d, refs, held_by, zq)
    calibration, heldout_points = _calibration(x, points, games, pairs, held, nd)
    additive_cal, _ = _calibration(x_add, points, games, pairs, held, nd)
    calibration["additive_dispersion"] = additive_cal["dispersion"]
    interactions, cells = _interactions(
        x, points, games, pairs, coef, index, nd, lam, [s for s in SLOTS if s in acting]
    )
    calibration["cells"] = cells
    return {
        "table": table,
        "lam": lam,
        "lam_ci": (lam - zq * math.sqrt(var_lam[0]), lam + zq * math.sqrt(var_lam[0])),
        "lam_ci_games": (lam - zq * math.sqrt(var_lam[1]), lam + zq * math.sqrt(var_lam[1])),
        "seat": float(coef[-1]),
        "calibration": calibration,
        "interactions": interactions,
        "heldout_points": heldout_points,
        "terms": [f"{a} x {b}" for a, b in model.slot_pairs],
        "selection": selection,
        "pair_prices": _pair_prices(model, band_ind, ref, coef, cov_d, lam_row, printed, zq),
        "negative_control": _negative_control(acting, refs, held_by, m, coef, cov_d, cov),
        "fit": fit_record(model, coef, cov_d, lam_row, m, refs, costs, acting),
    }


def _references(held_by, costs) -> np.ndarray:
    """Each slot's reference: its cheapest option some drawn design holds (the first, unless
    the band leaves it out)."""
    refs = np.zeros(len(OPTIONS), dtype=bool)
    for slot in SLOTS:
        mine = [i for i, (s, _) in enumerate(OPTIONS) if s == slot and held_by[i] > 0]
        refs[min(mine, key=lambda i: (costs[slot][_option_index(*OPTIONS[i])], i))] = True
    return refs


def _fit_or_explain(x, points, games, nfree, nd, npairs) -> np.ndarray:
    """The additive fit's coefficients, or a user error saying why the games cannot give them
    (an option whose designs won or lost every game; options the designs cannot tell apart)."""
    from ...errors import UserError

    coef, _ = fit_strengths(x, points, games)
    if not np.all(np.isfinite(coef)) or np.max(np.abs(coef), initial=0.0) > SEPARATED:
        raise UserError(
            f"too few games to price the options: with {int(games.sum())} games over "
            f"{npairs} pairings some option's designs won or lost every game, so its "
            "strength has no finite estimate; raise n (games a pairing, e.g. -n 200)"
        )
    if np.linalg.matrix_rank(x[games > 0]) < x.shape[1]:
        raise UserError(
            f"{nd} designs cannot tell the {nfree} options they hold apart (a price for "
            "each needs designs that differ in it, more designs than options): raise "
            "--designs or leave it out to play every design of the band"
        )
    return coef


def _design_bootstrap(x, points, games, pairs, nd, coef, m, lam_row, rng, reps):
    """Standard deviations of the fair prices over ``reps`` resamplings of the designs (each
    drawn design gets a multiplicity, a pairing the product of its designs'; the model
    refitted): a check of the clustered covariance, which needs no refit. None when 0."""
    if not reps:
        return None
    a, b = pairs[:, 0], pairs[:, 1]
    out = np.full((reps, m.shape[0]), np.nan)
    for r in range(reps):
        mult = rng.multinomial(nd, np.full(nd, 1.0 / nd)).astype(float)
        w = np.where(a < nd, mult[np.minimum(a, nd - 1)], 1.0) * np.where(
            b < nd, mult[np.minimum(b, nd - 1)], 1.0
        )
        c, _ = fit_strengths(x, points * w, games * w, start=coef, iters=25, tol=1e-8)
        lam = float(lam_row @ c)
        if lam > 0:
            out[r] = (m @ c) / lam
    return np.nanstd(out, axis=0, ddof=1)


def _verdicts(fair, sd, sd_g, boot_sd, printed, beta, m, cov, refs, held_by, zq) -> list[dict]:
    """One row per option with its interval and Holm's verdict over the priced options."""
    free = [i for i in range(len(OPTIONS)) if not refs[i] and held_by[i] > 0]
    dev = fair - printed
    pvals = [
        2 * (1 - NormalDist().cdf(abs(dev[i] / sd[i])))
        if np.isfinite(dev[i]) and sd[i] > 0
        else 1.0
        for i in free
    ]
    rej = dict(zip(free, holm(pvals, alpha=ALPHA) if pvals else [], strict=True))
    pv = dict(zip(free, pvals, strict=True))
    se_beta = np.sqrt(np.clip(np.einsum("ij,jk,ik->i", m, cov, m), 0, None))
    table = []
    for i, (slot, name) in enumerate(OPTIONS):
        row = {
            "slot": slot,
            "option": name,
            "printed": int(printed[i]),
            "fair": float(fair[i]),
            "lo": float(fair[i] - zq * sd[i]),
            "hi": float(fair[i] + zq * sd[i]),
            "strength": float(beta[i]),
            "strength_se": float(se_beta[i]),
            "deviation": float(dev[i]),
            "se": float(sd[i]),
            "se_games": float(sd_g[i]),
            **({} if boot_sd is None else {"se_bootstrap": float(boot_sd[i])}),
            "p": 1.0,
            "verdict": "reference",
            "designs": int(held_by[i]),
        }
        if held_by[i] == 0:
            row.update(verdict="not in the band", p=math.nan, se=math.nan, se_games=math.nan)
            row["fair"] = row["lo"] = row["hi"] = row["deviation"] = math.nan
        elif refs[i]:
            row.update(lo=float(fair[i]), hi=float(fair[i]), se=0.0, se_games=0.0)
        else:
            row["p"] = float(pv[i])
            row["verdict"] = (
                "no price"
                if not math.isfinite(dev[i])
                else ("over-priced" if dev[i] < 0 else "under-priced")
                if rej[i]
                else "fair?"
            )
        table.append(row)
    return table


def _pair_prices(model, ind, ref, coef, cov, lam_row, printed, zq) -> list[dict]:
    """For every slot pair with terms in the model: each option's fair price averaged over the
    band's designs holding each option of the other slot (Very Heavy with each wing size),
    with 95% intervals, where some design of the band holds both (``ind``: the band's)."""
    out = []
    for s1, s2 in model.slot_pairs:
        for first, second in ((s1, s2), (s2, s1)):
            us = [i for i in range(len(OPTIONS)) if OPTIONS[i][0] == first]
            vs = [i for i in range(len(OPTIONS)) if OPTIONS[i][0] == second]
            for u in us:
                if u not in model.free:
                    continue
                for v in vs:
                    k = int((ind[:, u] * ind[:, v]).sum())
                    if not k:
                        continue
                    rate, var = delta_prices(
                        pair_strengths(model, u, v, ind)[None, :], lam_row, coef, cov
                    )
                    f, sd = float(ref[u] + rate[0]), float(np.sqrt(var[0]))
                    out.append(
                        {
                            "slots": f"{first} x {second}",
                            "option": OPTIONS[u][1],
                            "with": OPTIONS[v][1],
                            "printed": int(printed[u]),
                            "fair": f,
                            "lo": f - zq * sd,
                            "hi": f + zq * sd,
                            "designs": k,
                        }
                    )
    return out


def _negative_control(acting, refs, held_by, m, coef, cov_d, cov_g) -> dict:
    """Where riders do not act (the basic rules), their options must be worth nothing: the
    Wald test that their strengths are all zero, under the clustered covariance and under the
    games' noise alone."""
    if "rider" in acting:
        return {}
    idx = [i for i, (s, _) in enumerate(OPTIONS) if s == "rider" and not refs[i] and held_by[i] > 0]
    if not idx:
        return {}
    beta = m[idx] @ coef
    chi, df, p = wald(beta, m[idx] @ cov_d @ m[idx].T)
    chi_g, _, p_g = wald(beta, m[idx] @ cov_g @ m[idx].T)
    return {
        "slot": "rider",
        "why": "riders do not act under these rules (the basic sequence of play has no rider "
        "phase, p.7)",
        "options": [OPTIONS[i][1] for i in idx],
        "chi2": chi,
        "df": df,
        "p": p,
        "chi2_games": chi_g,
        "p_games": p_g,
    }


# ------------------------------------------------------------------------- the stored fit
#: the stored fit's format: a file of another format is refused, not misread
FIT_FORMAT = "dragonsim-price-fit/1"


def option_label(i: int) -> str:
    """``body=Heavy``: option ``i`` of :data:`~dragonsim.lords.analysis.designs.OPTIONS` as an
    inline design writes it."""
    return f"{OPTIONS[i][0]}={OPTIONS[i][1]}"


def fit_record(model: Model, coef, cov, lam_row, m, refs, costs, acting) -> dict:
    """What pricing a build later needs of a fit, JSON-able: the model's columns (free
    options, pair terms, then one per field dragon and the seat), the coefficients, their
    covariance clustered by design, the exchange rate as a row of the coefficients, the
    band-average strengths (``band_strengths @ coef``: each option's strength averaged over
    the band) and the slots' reference options and costs. Options are named (``body=Heavy``),
    not numbered, so a reordered option table cannot misread a stored fit. The covariance is
    kept to 10 significant digits (its own error is far larger; the file stays small)."""
    ref, _ = _reference_costs(costs, refs)
    nfree = len(model.free)
    columns = [option_label(int(o)) for o in model.free]
    columns += [f"{option_label(u)} x {option_label(v)}" for u, v in model.terms]
    columns += [f"field {k}" for k in range(model.nf)] + ["seat"]
    return {
        "format": FIT_FORMAT,
        "columns": columns,
        "free": columns[:nfree],
        "terms": [[option_label(u), option_label(v)] for u, v in model.terms],
        "slot_pairs": [list(pair) for pair in model.slot_pairs],
        "references": [option_label(i) for i in np.flatnonzero(refs)],
        "reference_costs": {OPTIONS[i][0]: float(ref[i]) for i in np.flatnonzero(refs)},
        "acting": list(acting),
        "coef": [float(c) for c in coef],
        "cov": [[float(f"{v:.10g}") for v in row] for row in np.asarray(cov)],
        "lam_row": [float(v) for v in lam_row],
        "lam": float(lam_row @ coef),
        "band_strengths": [[float(v) for v in row] for row in m],
    }


def save_fit(fit: Mapping[str, Any], path) -> None:
    """Write a fit (:attr:`~dragonsim.lords.analysis.pricing.PricesResult.fit`) as JSON: one
    key a line, a matrix one row a line, so a diff of two fits reads."""
    lines = []
    for key, value in fit.items():
        if isinstance(value, list) and value and isinstance(value[0], list):
            rows = ",\n  ".join(json.dumps(r) for r in value)
            lines.append(f"{json.dumps(key)}: [\n  {rows}\n ]")
        else:
            lines.append(f"{json.dumps(key)}: {json.dumps(value)}")
    Path(path).write_text("{\n " + ",\n ".join(lines) + "\n}\n", encoding="utf-8")
