"""Conflicts: a hero's rolls against a difficulty, by a plan of actions and cards; the conflict
kernel and its counters."""

from __future__ import annotations

import sys

import numpy as np
from numba import njit, prange

from ... import _kernels, random
from ..._kernels import chunk_bounds, game_fn, guard_caches, n_chunks
from ...random import seed_stream
from . import dice
from .dice import P_DICE, roll_battle

# --- conflicts ------------------------------------------------------------------------------
K_N, K_SUCCESS, K_EXCEED, K_STRESS_SUM, K_STRESS_SQ = 0, 1, 2, 3, 4
K_ACTIONS, K_CARDS, K_ATTEMPTS = 5, 6, 7
K_HITS = 8  # + first attempt's hits (clipped to K_BINS - 1)
K_BINS = 64
K_WOE = K_HITS + K_BINS
K_COUNT = K_WOE + K_BINS


@game_fn
def play_conflict(difficulty, plan, actions, cards_in_hand, carry, die_hits, die_woe, st, res):
    """One conflict played by ``plan[a, c, p] = (actions, cards)`` for the next attempt with
    ``a`` actions and ``c`` cards left and a pool of ``p`` dice carried over (``(0, 0)``:
    stop; ``p`` is 0 unless ``carry``). With ``carry`` 0 (the default reading) each attempt
    rolls its actions + cards; with ``carry`` 1 the pool is kept: a retry rolls the last pool
    plus its actions + cards, less the 1 action that buys the retry. Printed: "You start with
    1 battle die ... spend any number of your remaining actions and discard any number of
    ability cards ... to add that many dice"; "If the hits equal or exceed the difficulty, you
    succeed"; "If you roll fewer hits, you fail, but you may spend 1 or more actions to try
    again"; "each Woe result causes the hero to take 1 stress". Fills ``res`` = (success,
    exceed, stress, actions used, cards used, attempts, first hits, first woe)."""
    a = actions
    c = cards_in_hand
    for i in range(res.shape[0]):
        res[i] = 0
    res[6] = -1
    pool = 0
    while a > 0:
        sa = plan[a, c, pool, 0]
        sc = plan[a, c, pool, 1]
        if sa <= 0:
            break
        n = sa + sc
        if carry != 0:
            n = pool + sa + sc - np.int64(pool > 0)
            pool = n
        hits, woe = roll_battle(st, n, die_hits, die_woe)
        if res[5] == 0:
            res[6] = hits
            res[7] = woe
        res[5] += 1
        res[2] += woe
        res[3] += sa
        res[4] += sc
        a -= sa
        c -= sc
        if hits >= difficulty:
            res[0] = 1
            if hits > difficulty:
                res[1] = 1
            break


@njit(cache=True, parallel=True)
def conflict_kernel(
    start, stop, seed, difficulty, plan, actions, cards_in_hand, carry, die_hits, die_woe
):
    """Play conflicts ``start..stop-1`` (``plan`` int64[a, c, p, 2], see
    :func:`play_conflict`); returns int64 counters (see ``K_*``)."""
    n = stop - start
    nchunks = n_chunks(n)
    out = np.zeros((nchunks, K_COUNT), np.int64)
    for ch in prange(nchunks):
        st = np.zeros(1, np.uint64)
        res = np.zeros(8, np.int64)
        row = out[ch]
        a, b = chunk_bounds(start, n, ch, nchunks)
        for game in range(a, b):
            seed_stream(st, seed, game, P_DICE)
            play_conflict(
                difficulty, plan, actions, cards_in_hand, carry, die_hits, die_woe, st, res
            )
            row[K_N] += 1
            row[K_SUCCESS] += res[0]
            row[K_EXCEED] += res[1]
            row[K_STRESS_SUM] += res[2]
            row[K_STRESS_SQ] += res[2] * res[2]
            row[K_ACTIONS] += res[3]
            row[K_CARDS] += res[4]
            row[K_ATTEMPTS] += res[5]
            if res[6] >= 0:
                row[K_HITS + min(res[6], K_BINS - 1)] += 1
                row[K_WOE + min(res[7], K_BINS - 1)] += 1
    return out.sum(axis=0)


# numba caches a function only against its own file: flush this module's caches when a file it
# compiles in changes
guard_caches(sys.modules[__name__], [dice, random, _kernels])
