"""A scenario on a row of battle tiles: the active flank, flank moves, the control limit; the
battlefield kernel and its counters."""

from __future__ import annotations

import sys

import numpy as np
from numba import njit, prange

from ... import _kernels, _llvm, random
from ..._kernels import chunk_bounds, game_fn, guard_caches, n_chunks
from ...random import below, run_key
from . import combat, commanders, dice, heroes, lines, phase, state
from .dice import seed_game
from .heroes import recover
from .phase import battle, chunk_scratch, reset_game, take_control
from .state import (
    ALLIANCE,
    ARMY,
    BR,
    BS,
    G_DICE,
    G_STRESS,
    O_ACTIVE_FLANK,
    O_CONTROL_LIMIT,
    O_FLANK_MOVE,
    O_HEROES,
    O_LINE_CAP,
    O_MAX_TURNS,
    O_STRESS_RECOVERY,
    R,
    S,
    fixed,
    units,
)

# battlefield counters
F_N, F_WIN, F_HOLD, F_LOSS, F_LOSS_LIMIT, F_UNFINISHED = 0, 1, 2, 3, 4, 5
F_TURNS_SUM, F_TURNS_SQ, F_DICE, F_STRESS_SUM, F_STRESS_SQ = 6, 7, 8, 9, 10
F_TILES = 16  # + 2*t + side: tile controlled by side at the end


@game_fn
def move_flank(u, t, w, ctl, flank, st_f, adjacent, cap):
    """Printed: "move that tile's flank token and 1 unit of each type from the victorious side
    to a neighboring battle tile". Assumed: the nearest uncontrolled tile on each side of ``t``
    in the row (``adjacent`` 0), or the next tile on each side, controlled or not
    (``adjacent`` 1); one of the two at random; ready units move first; a full line (``cap``
    units, printed 6) takes none."""
    nt = ctl.shape[0]
    left = -1
    for i in range(t - 1, -1, -1):
        if ctl[i] < 0 or adjacent:
            left = i
            break
    right = -1
    for i in range(t + 1, nt):
        if ctl[i] < 0 or adjacent:
            right = i
            break
    if left < 0 and right < 0:
        return
    if left >= 0 and right >= 0:
        dest = left if below(st_f, 2) == 0 else right
    else:
        dest = left if left >= 0 else right
    flank[dest] += flank[t]
    flank[t] = 0
    for l in range(3):
        if units(u, dest, w, l) >= cap:
            continue
        if u[t, w, l, R] > 0:
            u[t, w, l, R] -= 1
            u[t, w, l, BR] = min(u[t, w, l, BR], u[t, w, l, R])
            u[dest, w, l, R] += 1
        elif u[t, w, l, S] > 0:
            u[t, w, l, S] -= 1
            u[t, w, l, BS] = min(u[t, w, l, BS], u[t, w, l, S])
            u[dest, w, l, S] += 1


@game_fn(inline="always")
def active_flank(ctl, flank, st_f, each_alike):
    """The active flank: an uncontrolled tile, chosen in proportion to its flank tokens (or,
    with ``each_alike``, ``opts[O_ACTIVE_FLANK]``, each alike); -1 when every tile is
    controlled."""
    nt = ctl.shape[0]
    tot = 0
    free = 0
    for i in range(nt):
        if ctl[i] < 0:
            tot += flank[i]
            free += 1
    if free == 0:
        return -1
    t = -1
    if tot > 0 and each_alike == 0:
        x = below(st_f, tot)
        for i in range(nt):
            if ctl[i] < 0:
                x -= flank[i]
                if x < 0:
                    t = i
                    break
    else:
        x = below(st_f, free)
        for i in range(nt):
            if ctl[i] < 0:
                if x == 0:
                    t = i
                    break
                x -= 1
    return t


@game_fn(inline="always")
def play_field(gm, su, tb):
    """One scenario ``gm`` (:class:`~.state.Game`) from the position ``su`` on a row of battle
    tiles under the rules ``tb``. Returns ``(outcome, turns)`` with outcome 0 win, 1 hold, 2
    loss (all tiles controlled), 3 loss (Dragon Army control limit), -1 unfinished."""
    reset_game(gm, su)
    u, cmd, ctl, flank, st_f, opts = gm.u, gm.cmd, gm.ctl, gm.flank, gm.st_f, tb.opts
    nt = u.shape[0]
    limit = opts[O_CONTROL_LIMIT]
    rec = opts[O_STRESS_RECOVERY]
    for turn in range(1, opts[O_MAX_TURNS] + 1):
        if rec > 0 and turn > 1:
            recover(gm.stress, rec)
        t = active_flank(ctl, flank, st_f, opts[O_ACTIVE_FLANK])
        if t < 0:
            break
        w = battle(gm, t, su.cmd_tab, tb)
        if w < 0:
            continue
        take_control(u, t, w, cmd)
        ctl[t] = w
        move_flank(u, t, w, ctl, flank, st_f, opts[O_FLANK_MOVE], opts[O_LINE_CAP])
        na = 0
        nd = 0
        for i in range(nt):
            if ctl[i] == ALLIANCE:
                na += 1
            elif ctl[i] == ARMY:
                nd += 1
        if w == ARMY and limit > 0 and nd >= limit:
            return 3, turn
        if na + nd == nt:
            if na > nd:
                return 0, turn
            if na < nd:
                return 2, turn
            return 1, turn
    return -1, opts[O_MAX_TURNS]


@game_fn
def play_fields(gm, su, tb, s0, a, b, row):
    """Scenarios ``a..b-1`` of a chunk (``s0 = run_key(seed)``), each from its own streams,
    their counters added into ``row`` (see :func:`~.tile.play_tiles`)."""
    gm, su, tb = fixed(gm, su, tb)
    g, ctl = gm.g, gm.ctl
    nt = ctl.shape[0]
    for game in range(a, b):
        seed_game(gm.st_d, gm.st_c, gm.st_f, s0, game)
        res, turns = play_field(gm, su, tb)
        row[F_N] += 1
        if res == 0:
            row[F_WIN] += 1
        elif res == 1:
            row[F_HOLD] += 1
        elif res >= 2:
            row[F_LOSS] += 1
            if res == 3:
                row[F_LOSS_LIMIT] += 1
        else:
            row[F_UNFINISHED] += 1
        row[F_TURNS_SUM] += turns
        row[F_TURNS_SQ] += turns * turns
        row[F_DICE] += g[G_DICE]
        row[F_STRESS_SUM] += g[G_STRESS]
        row[F_STRESS_SQ] += g[G_STRESS] * g[G_STRESS]
        for i in range(nt):
            if ctl[i] >= 0:
                row[F_TILES + 2 * i + ctl[i]] += 1


@njit(cache=True, parallel=True)
def field_kernel(start, stop, seed, setup, tables):
    """Play scenarios ``start..stop-1`` on ``T`` tiles (``setup``: the starting position,
    :class:`~.state.Setup`, with its flank tokens; ``tables`` the rules); returns int64
    counters: outcomes, turns, dice, stress, and per tile who controls it at the end."""
    n = stop - start
    nt = setup.u0.shape[0]
    heroes = tables.opts[O_HEROES]
    ncount = F_TILES + 2 * nt
    nchunks = n_chunks(n)
    out = np.zeros((nchunks, ncount), np.int64)
    s0 = run_key(seed)
    for ch in prange(nchunks):
        gm, su, tb = chunk_scratch(setup, tables, heroes)
        a, b = chunk_bounds(start, n, ch, nchunks)
        play_fields(gm, su, tb, s0, a, b, out[ch])
    return out.sum(axis=0)


# numba caches a function only against its own file: flush this module's caches when a file it
# compiles in changes
guard_caches(
    sys.modules[__name__],
    [combat, commanders, dice, heroes, lines, phase, state, random, _kernels, _llvm],
)
