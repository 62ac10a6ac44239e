"""A synthetic win model for the design-point studies (no engine): planted option strengths,
and a pairs kernel that plays each game as one draw from them.
``tests/lords/test_design_point_prices.py`` and ``tests/lords/test_best_build.py`` plant prices
and best builds with it."""

from __future__ import annotations

import numpy as np

from dragonsim.lords.analysis import designs as D
from dragonsim.lords.game import state as S

COSTS = {
    "body": [1, 2, 3, 4, 5],
    "wings": [1, 2, 3, 4, 5],
    "breath": [1, 2, 3, 4, 5],
    "claws": [1, 2, 3, 4, 5],
    "rider": [0, 1, 2, 3, 4, 5],
}
LAM = 0.16  # planted log-odds per design point (the engine's is about this under basic)
SEAT = 0.05


def planted_prices(seed: int = 7) -> np.ndarray:
    """Fair prices off the printed ones by up to +-2 DP, normalised as the estimator defines
    them (slot references at their printed cost; over the four acting slots the slope of
    the premiums on the printed premiums is 1), so ``fair_prices`` of their strengths gives
    them back exactly."""
    rng = np.random.default_rng(seed)
    printed = np.array([COSTS[s][D.OPTIONS.index((s, o)) - _first(s)] for s, o in D.OPTIONS])
    ref = np.array([COSTS[s][0] for s, _ in D.OPTIONS], dtype=float)
    prem = printed - ref
    dev = rng.choice([-2.0, -1.0, 0.0, 0.0, 1.0, 2.0], size=len(prem))
    q = np.where(prem > 0, np.maximum(prem + dev, 0.0), 0.0)
    acting = np.array([s != "rider" for s, _ in D.OPTIONS])
    q[acting] *= np.sum(prem[acting] ** 2) / np.sum(q[acting] * prem[acting])
    return ref + q


def _first(slot: str) -> int:
    return next(i for i, (s, _) in enumerate(D.OPTIONS) if s == slot)


def synthetic_kernel(beta: np.ndarray, seat: float = SEAT, terms=()):
    """A pairs kernel (``D.pairs_kernel``'s signature) playing each game as one Bernoulli
    draw from the planted strengths; game ``k`` of pair ``p`` uses a hash of ``(seed, p, k)``,
    so counts do not depend on the blocks. ``terms``: ``(u, v, value)``, a design holding
    options ``u`` and ``v`` (indices in ``D.OPTIONS``) is ``value`` log-odds stronger than
    the sum of its options (a planted interaction)."""
    starts = np.array([_first(s) for s in D.SLOTS])
    cols = [S.D_BODY, S.D_WINGS, S.D_BREATH, S.D_CLAWS, S.D_RIDER]

    def kernel(start, stop, seed, rows, m, offset, common, *args):
        npairs = rows.shape[0]
        out = np.zeros(3 * npairs, dtype=np.int64)
        if stop <= start:
            return out
        g = np.arange(start, stop, dtype=np.uint64)
        p = (g // np.uint64(m)).astype(np.int64)
        k = (g % np.uint64(m) if common else g) + np.uint64(offset)
        held = starts + rows[:, :, cols]  # [P, 2, slots]: each side's options
        s = beta[held].sum(axis=2)  # [P, 2]
        for u, v, value in terms:
            s = s + value * ((held == u).any(axis=2) & (held == v).any(axis=2))
        pr = 1 / (1 + np.exp(-(s[:, 0] - s[:, 1] + seat)))
        u = _uniform(seed, p.astype(np.uint64), k)
        win = u < pr[p]
        np.add.at(out, 3 * p, win)
        np.add.at(out, 3 * p + 1, ~win)
        return out

    return kernel


def _uniform(seed, p, k):
    """splitmix64 of (seed, pair, game) -> uniform [0, 1)."""
    with np.errstate(over="ignore"):
        z = (
            np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15)
            + p * np.uint64(0xBF58476D1CE4E5B9)
            + k * np.uint64(0x94D049BB133111EB)
        )
        for sh, mul in ((30, 0xBF58476D1CE4E5B9), (27, 0x94D049BB133111EB)):
            z = (z ^ (z >> np.uint64(sh))) * np.uint64(mul)
        z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)).astype(np.float64) / float(1 << 53)


#: the share of games the game-by-game synthetic kernel makes draws (to check they count half)
DRAWS = 0.1


def synthetic_games_kernel(beta: np.ndarray, seat: float = SEAT):
    """A winners kernel (``D.pair_games_kernel``'s signature) from the planted strengths:
    game ``k`` of pair ``p`` is one uniform draw ``u`` of a hash of ``(seed, streams[p] + k)``
    alone, so pairs given the same streams share ``u`` (common random numbers, as strongly as
    they can be): side 0 wins when ``u < (1 - DRAWS) pr``, side 1 when ``u >= 1 - (1 - DRAWS)
    (1 - pr)``, a draw between (``pr = sigmoid(s_0 - s_1 + seat)``)."""
    starts = np.array([_first(s) for s in D.SLOTS])
    cols = [S.D_BODY, S.D_WINGS, S.D_BREATH, S.D_CLAWS, S.D_RIDER]

    def kernel(start, stop, seed, rows, streams, *args):
        npairs = rows.shape[0]
        out = np.zeros(3 * npairs, dtype=np.int64)
        g = np.arange(start, stop, dtype=np.int64)
        p, k = g % npairs, g // npairs
        s = beta[starts + rows[:, :, cols]].sum(axis=2)  # [P, 2]
        pr = 1 / (1 + np.exp(-(s[:, 0] - s[:, 1] + seat)))
        u = _uniform(seed, np.zeros(len(g), np.uint64), (streams[p] + k).astype(np.uint64))
        winners = np.where(
            u < (1 - DRAWS) * pr[p], 0, np.where(u >= 1 - (1 - DRAWS) * (1 - pr[p]), 1, -1)
        ).astype(np.int8)
        for side, w in ((0, 0), (1, 1), (2, -1)):
            np.add.at(out, 3 * p + side, winners == w)
        return out, winners.tobytes()

    return kernel
