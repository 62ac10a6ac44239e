"""Battles on one tile, turn after turn until a side controls it: the battle kernel and its
counters (``B_*``)."""

from __future__ import annotations

import sys

import numpy as np
from numba import njit, prange

from ... import _kernels, _llvm, random
from ..._kernels import chunk_bounds, game_fn, guard_caches, n_chunks
from ...random import run_key
from . import combat, commanders, dice, heroes, lines, phase, state
from .dice import seed_game
from .heroes import recover
from .phase import battle, chunk_scratch, reset_game, take_control
from .state import (
    G_CARDS,
    G_DICE,
    G_FIGHTS,
    G_STRESS,
    O_HEROES,
    O_MAX_STRESS,
    O_MAX_TURNS,
    O_STRESS_BINS,
    O_STRESS_RECOVERY,
    R,
    S,
    fixed,
)

# battle counters
B_N, B_ALLIANCE, B_ARMY, B_NONE = 0, 1, 2, 3
B_TURNS_SUM, B_TURNS_SQ, B_STRESS_SUM, B_STRESS_SQ = 4, 5, 6, 7
B_DICE, B_FIGHTS, B_HERO_MAXED, B_PLAYED, B_CARDS = 8, 9, 10, 11, 12
B_UNITS = 16  # + (side*3+line)*2 + (0 ready, 1 shaken)
B_TOTAL = 28  # + side (total units left), B_TOTAL_SQ = 30 + side
B_HIST = 32


@game_fn(inline="always")
def battle_offsets(max_turns, stress_bins):
    """Where the histograms start among the battle counters: ``(turns, stress, lines,
    total)``."""
    turn = B_HIST  # turn histogram, [winner (0,1)][turn 0..max_turns]
    st = turn + 2 * (max_turns + 1)
    line = st + stress_bins  # end-state histogram [side][line][ready 0..6][shaken 0..6]
    return turn, st, line, line + 2 * 3 * 7 * 7


@game_fn(inline="always")
def play_tile(gm, su, tb):
    """One game ``gm`` (:class:`~.state.Game`) from the position ``su`` on one battle tile
    under the rules ``tb``: battles turn after turn until the tile is controlled.

    Returns ``(winner, turns)``; winner -1 when ``opts[O_MAX_TURNS]`` battles did not decide."""
    reset_game(gm, su)
    opts = tb.opts
    rec = opts[O_STRESS_RECOVERY]
    for turn in range(1, opts[O_MAX_TURNS] + 1):
        if rec > 0 and turn > 1:
            recover(gm.stress, rec)
        w = battle(gm, 0, su.cmd_tab, tb)
        if w >= 0:
            take_control(gm.u, 0, w, gm.cmd)
            return w, turn
    return -1, opts[O_MAX_TURNS]


@game_fn
def play_tiles(gm, su, tb, s0, a, b, row):
    """Games ``a..b-1`` of a chunk (``s0 = run_key(seed)``), each from its own streams, their
    counters added into ``row``. Games play inlined into this loop: compiled as a function
    of its own, the battle phase took more in the call than in the battle. The records are
    first seen in fixed shapes (:func:`~.state.fixed`)."""
    gm, su, tb = fixed(gm, su, tb)
    opts = tb.opts
    u, g, stress = gm.u, gm.g, gm.stress
    max_turns = opts[O_MAX_TURNS]
    bins = opts[O_STRESS_BINS]
    o_turn, o_st, o_line, _ = battle_offsets(max_turns, bins)
    for game in range(a, b):
        seed_game(gm.st_d, gm.st_c, gm.st_f, s0, game)
        w, turns = play_tile(gm, su, tb)
        row[B_N] += 1
        row[B_PLAYED] += turns
        if w < 0:
            row[B_NONE] += 1
        else:
            row[B_ALLIANCE + w] += 1
            row[B_TURNS_SUM] += turns
            row[B_TURNS_SQ] += turns * turns
            row[o_turn + w * (max_turns + 1) + turns] += 1
        sg = g[G_STRESS]
        row[B_STRESS_SUM] += sg
        row[B_STRESS_SQ] += sg * sg
        row[o_st + min(sg, bins - 1)] += 1
        row[B_DICE] += g[G_DICE]
        row[B_FIGHTS] += g[G_FIGHTS]
        row[B_CARDS] += g[G_CARDS]
        for h in range(opts[O_HEROES]):
            if stress[h] >= opts[O_MAX_STRESS]:
                row[B_HERO_MAXED] += 1
                break
        for s in range(2):
            tot = 0
            for l in range(3):
                r = u[0, s, l, R]
                sh = u[0, s, l, S]
                row[B_UNITS + (s * 3 + l) * 2] += r
                row[B_UNITS + (s * 3 + l) * 2 + 1] += sh
                row[o_line + ((s * 3 + l) * 7 + r) * 7 + sh] += 1
                tot += r + sh
            row[B_TOTAL + s] += tot
            row[B_TOTAL + 2 + s] += tot * tot


@njit(cache=True, parallel=True)
def battle_kernel(start, stop, seed, setup, tables):
    """Play games ``start..stop-1`` on one battle tile; returns int64 counters (they add).

    Parameters
    ----------
    setup : Setup
        The tile's starting position (``T`` = 1): units, commanders and their powers.
    tables : Tables
        The rules: unit decks, battle and skirmish dice, options (``opts[O_*]``).
    """
    n = stop - start
    opts = tables.opts
    ncount = battle_offsets(opts[O_MAX_TURNS], opts[O_STRESS_BINS])[3]
    heroes = opts[O_HEROES]
    nchunks = n_chunks(n)
    out = np.zeros((nchunks, ncount), np.int64)
    s0 = run_key(seed)
    for ch in prange(nchunks):
        gm, su, tb = chunk_scratch(setup, tables, heroes)
        a, b = chunk_bounds(start, n, ch, nchunks)
        play_tiles(gm, su, tb, s0, a, b, out[ch])
    return out.sum(axis=0)


# numba caches a function only against its own file: flush this module's caches when a file it
# compiles in changes
guard_caches(
    sys.modules[__name__],
    [combat, commanders, dice, heroes, lines, phase, state, random, _kernels, _llvm],
)
