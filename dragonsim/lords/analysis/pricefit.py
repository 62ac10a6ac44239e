"""The statistics behind fair prices: the logistic (Bradley-Terry) fit of point shares on option
indicators, the conversion of strengths to design points, and the checks of the additive model
(calibration on held-out designs, option pairs beyond the sum).

:mod:`~dragonsim.lords.analysis.pricing` plays the games and reports; this module holds the
arithmetic on their counts, with no game in it (its module docstring, steps 3-6, says what each
part estimates and why).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from statistics import NormalDist

import numpy as np
from numba import njit

from ...stats import holm
from .designs import OPTIONS, SLOTS

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


def _nanvar(a):
    """Variance over replicates (axis 0) of the finite ones; NaN with fewer than two."""
    a = np.asarray(a, dtype=float)
    ok = np.isfinite(a)
    k = ok.sum(axis=0)
    m = np.where(ok, a, 0.0).sum(axis=0) / np.maximum(k, 1)
    ss = np.where(ok, (a - m) ** 2, 0.0).sum(axis=0)
    return np.where(k >= 2, ss / np.maximum(k - 1, 1), np.nan)


def _boot_prices(coefs, full_beta, costs, acting, refs):
    """Fair prices and exchange rates of many coefficient vectors (NaN where ``lam <= 0``)."""
    fair = np.full((len(coefs), len(OPTIONS)), np.nan)
    lam = np.full(len(coefs), np.nan)
    for r, c in enumerate(coefs):
        fair[r], lam[r] = fair_prices(full_beta(c), costs, acting, refs)
    return fair, lam


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


def _interactions(x, points, games, pairs, coef, index, nd, lam):
    """Residual points of the designs holding each pair of options from two slots (games
    against the field, full fit): a log-odds shift (residual / information), a z score, and
    Holm over every cell with a design."""
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
