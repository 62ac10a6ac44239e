"""Kernels that only roll Dragon Dice dice, beside the real ones (benchmarks and tests).

* :func:`rng_floor_kernel`: the random-number floor of ``bench_dice.py``: per game,
  seed the same two streams as :func:`dragonsim.dice.kernel.army_kernel` and roll as many dice,
  doing nothing else.
* :func:`dragon_roll_kernel`: one dragon roll per game (tails, then the final icon), the
  distribution ``tests/dice/test_exact_odds.py`` checks against the exact tail chain.

They live here, not in the package: no public function calls them. ``bench_dice.py`` imports
this module as ``dice_floor`` (a script's own folder is on ``sys.path``); the tests put
``benchmarks/`` on ``sys.path`` first.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit, prange

from dragonsim import _kernels, random
from dragonsim._kernels import chunk_bounds, game_fn, guard_caches, n_chunks
from dragonsim.dice import data, kernel
from dragonsim.dice.data import D_TAIL
from dragonsim.dice.kernel import P_ARMY, P_DRAGON
from dragonsim.random import below, seed_stream

__all__ = ["rng_floor_kernel", "dragon_roll_kernel", "roll_dragon"]


@game_fn
def roll_dragon(sd, faces):
    """Roll one dragon die until a non-tail icon: returns ``(tails, final_icon)``.

    ``faces`` is int64[12] of icons (``D_*``); the chain ends because at least one face is not
    a tail (checked by the API)."""
    tails = 0
    while True:
        f = faces[below(sd, 12)]
        if f != D_TAIL:
            return tails, f
        tails += 1


@njit(cache=True, parallel=True)
def rng_floor_kernel(start, stop, seed, dragon_dice, army_dice, sequential):
    """The random-number floor: per game, seed the same two streams as :func:`army_kernel`
    and draw d12 and d6 from them, doing nothing else.

    ``dragon_dice`` and ``army_dice`` are the totals over the games ``start..stop-1`` (the
    counts a kernel run reported), spread as evenly as integers allow (each game rolls the
    mean rounded down or up, without a division per game), so the floor rolls exactly the
    dice the games rolled.

    With ``sequential == 0`` the dice are summed, which LLVM vectorises (the generator is
    counter-based, so several dice are computed at once in SIMD lanes): the absolute floor.
    With ``sequential == 1`` each die feeds a serial recurrence (``acc = 3 acc + die``), as a
    game uses its dice one after another: the floor for dice used one at a time.
    """
    n = stop - start
    nch = n_chunks(n)
    rows = np.zeros((nch, 1), np.int64)
    nn = max(n, 1)
    bd, fd = dragon_dice // nn, dragon_dice % nn
    ba, fa = army_dice // nn, army_dice % nn
    for c in prange(nch):
        lo, hi = chunk_bounds(start, n, c, nch)
        sd = np.zeros(1, np.uint64)
        sa = np.zeros(1, np.uint64)
        rd = (fd * (lo - start)) % nn  # where this chunk's share of the remainders starts
        ra = (fa * (lo - start)) % nn
        acc = 0
        for g in range(lo, hi):
            seed_stream(sd, seed, g, P_DRAGON)
            seed_stream(sa, seed, g, P_ARMY)
            rd += fd
            xd = 1 if rd >= nn else 0
            rd -= nn * xd
            ra += fa
            xa = 1 if ra >= nn else 0
            ra -= nn * xa
            if sequential != 0:
                for _ in range(bd + xd):
                    acc = acc * 3 + below(sd, 12)
                for _ in range(ba + xa):
                    acc = acc * 3 + below(sa, 6)
            else:
                for _ in range(bd + xd):
                    acc += below(sd, 12)
                for _ in range(ba + xa):
                    acc += below(sa, 6)
        rows[c, 0] = acc
    out = np.zeros(1, np.int64)
    for c in range(nch):
        out[0] += rows[c, 0]
    return out


@njit(cache=True, parallel=True)
def dragon_roll_kernel(start, stop, seed, faces, max_tails):
    """Counts of ``(tails, final icon)`` of one dragon roll per game (tails capped at
    ``max_tails``): row-major int64[(max_tails + 1) * 7]."""
    n = stop - start
    nch = n_chunks(n)
    size = (max_tails + 1) * 7
    rows = np.zeros((nch, size), np.int64)
    for c in prange(nch):
        lo, hi = chunk_bounds(start, n, c, nch)
        sd = np.zeros(1, np.uint64)
        for g in range(lo, hi):
            seed_stream(sd, seed, g, P_DRAGON)
            tails, f = roll_dragon(sd, faces)
            if tails > max_tails:
                tails = max_tails
            rows[c, tails * 7 + f] += 1
    out = np.zeros(size, np.int64)
    for c in range(nch):
        for i in range(size):
            out[i] += rows[c, i]
    return out


guard_caches(sys.modules[__name__], [random, _kernels, data, kernel])
