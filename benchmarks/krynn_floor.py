"""The Warriors of Krynn random-number floor: a bare kernel that makes a game's random draws
and nothing else, for ``bench_krynn.py`` to compare the battle kernel against (not part of the
package: nothing in ``dragonsim`` uses it)."""

from __future__ import annotations

import sys

import numpy as np
from numba import njit, prange

from dragonsim import _kernels, random
from dragonsim._kernels import chunk_bounds, guard_caches, n_chunks
from dragonsim.krynn.engine import dice
from dragonsim.krynn.engine.dice import roll_battle, seed_game
from dragonsim.random import below, run_key

__all__ = ["dice_floor_kernel"]


@njit(cache=True, parallel=True)
def dice_floor_kernel(
    start,
    stop,
    seed,
    dice_per_game,
    die_hits,
    die_woe,
    cards_per_game=0,
    deck=1,
    flow_per_game=0,
    flow_faces=1,
):
    """Roll ``dice_per_game`` battle dice per game from the same per-game streams (3 seeded
    streams, as the battle kernel seeds) and count hits: the random-number floor.

    With ``cards_per_game`` / ``flow_per_game``, also the other random draws a game needs and
    nothing else: card reveals (a uniform index into what is left of a ``deck``-card deck,
    reshuffled when empty, as :func:`draw_card` draws, less the swap) and flow draws (one of
    ``flow_faces``, as the skirmish die)."""
    n = stop - start
    nchunks = n_chunks(n)
    out = np.zeros((nchunks, 2), np.int64)
    s0 = run_key(seed)
    for ch in prange(nchunks):
        st_d = np.zeros(1, np.uint64)
        st_c = np.zeros(1, np.uint64)
        st_f = np.zeros(1, np.uint64)
        row = out[ch]
        a, b = chunk_bounds(start, n, ch, nchunks)
        for game in range(a, b):
            seed_game(st_d, st_c, st_f, s0, game)
            hits, woe = roll_battle(st_d, dice_per_game, die_hits, die_woe)
            p = 0
            for _ in range(cards_per_game):
                p = p if p < deck else 0
                hits += p + below(st_c, deck - p)
                p += 1
            for _ in range(flow_per_game):
                hits += below(st_f, flow_faces)
            row[0] += 1
            row[1] += (
                hits + woe + np.int64(st_c[0] & np.uint64(1)) + np.int64(st_f[0] & np.uint64(1))
            )
    return out.sum(axis=0)


guard_caches(sys.modules[__name__], [dice, random, _kernels])
