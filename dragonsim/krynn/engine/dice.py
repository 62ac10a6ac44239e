"""Randomness of a Krynn game: its three streams, battle dice and unit card reveals.

Randomness comes only from :func:`dragonsim.random.seed_stream` streams of ``(seed, game,
purpose)``: battle dice, unit card draws and the battle's flow (battle type, skirmish die,
flank choices) each have their own purpose, so two configurations run with the same seed share
their dice (common random numbers), and the counters do not depend on how games are cut into
chunks.
"""

from __future__ import annotations

import sys

import numpy as np

from ... import _kernels, random
from ..._kernels import game_fn, guard_caches
from ...random import GOLDEN_GAMMA, below, game_key, mix64, next_u64, purpose_seed

# stream purposes
P_DICE, P_CARDS, P_FLOW = 0, 11, 12

_MASK32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)
_GAMMA2 = np.uint64((2 * int(GOLDEN_GAMMA)) & 0xFFFFFFFFFFFFFFFF)


@game_fn(inline="always")
def seed_game(st_d, st_c, st_f, s0, game):
    """Point the three streams at ``(seed, game, P_DICE / P_CARDS / P_FLOW)``, exactly as
    :func:`dragonsim.random.seed_stream` does, sharing the mixes common to the three purposes
    (``s0 = run_key(seed)``, once per run)."""
    s = game_key(s0, game)
    st_d[0] = purpose_seed(s, P_DICE)
    st_c[0] = purpose_seed(s, P_CARDS)
    st_f[0] = purpose_seed(s, P_FLOW)


@game_fn(inline="always")
def roll_battle(st, n, die_hits, die_woe):
    """Roll ``n`` battle dice (faces ``die_hits``/``die_woe``); returns ``(hits, woe)``.

    Two dice are cut from one 64-bit word (Lemire multiply-shift on each half; an odd die
    takes the high half of its own word). Pools of up to 3 dice (every unit card) are rolled
    without branches: both words are mixed, the state advances by the words used."""
    k = np.uint64(die_hits.shape[0])
    if n <= 3:
        s = st[0]
        x = mix64(s + GOLDEN_GAMMA)
        y = mix64(s + _GAMMA2)  # the next word, used only by a third die
        st[0] = s + GOLDEN_GAMMA * np.uint64((n + 1) >> 1)
        a = ((x >> _S32) * k) >> _S32
        b = ((x & _MASK32) * k) >> _S32
        c = ((y >> _S32) * k) >> _S32
        m1 = np.int64(n >= 1)
        m2 = np.int64(n >= 2)
        m3 = np.int64(n >= 3)
        hits = m1 * die_hits[a] + m2 * die_hits[b] + m3 * die_hits[c]
        woe = m1 * die_woe[a] + m2 * die_woe[b] + m3 * die_woe[c]
        return hits, woe
    hits = 0
    woe = 0
    while n >= 2:
        x = next_u64(st)
        a = ((x >> _S32) * k) >> _S32
        b = ((x & _MASK32) * k) >> _S32
        hits += die_hits[a] + die_hits[b]
        woe += die_woe[a] + die_woe[b]
        n -= 2
    if n == 1:
        a = below(st, die_hits.shape[0])
        hits += die_hits[a]
        woe += die_woe[a]
    return hits, woe


@game_fn(inline="always")
def draw_card(st, order, ptr, side, line, size):
    """Reveal the top card of a unit deck; returns the card's row in ``cards``.

    ``order[side, line, :ptr]`` is the discard pile, the rest the deck; drawing a uniformly
    random card of the deck is the same as revealing the top of a shuffled deck. Printed: "If
    that line's unit deck is empty, shuffle its discard pile to form a new unit deck first."
    """
    p = ptr[side, line]
    if p >= size:
        p = 0  # the discard pile becomes the deck
    j = p + below(st, size - p)
    c = order[side, line, j]
    order[side, line, j] = order[side, line, p]
    order[side, line, p] = c
    ptr[side, line] = p + 1  # revealed, then "put it in the corresponding discard pile"
    return c


# numba caches a function only against its own file: flush this module's caches when a file it
# compiles in changes
guard_caches(sys.modules[__name__], [random, _kernels])
