"""One battle phase on a tile (a skirmish or an all-out battle), who controls the tile after it,
and a game's start: its reset and a chunk's scratch."""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from ... import _kernels, random
from ..._kernels import game_fn, guard_caches
from ...random import below, uniform
from . import combat, commanders, dice, heroes, lines, state
from .combat import fight
from .commanders import commander_power
from .state import (
    ALLIANCE,
    ARMY,
    BS,
    F_P_ALL_OUT,
    F_P_ALL_OUT_CMD,
    N_G,
    O_CMD_LINE,
    O_MUTUAL,
    TAC,
    Die,
    Game,
    R,
    S,
    Setup,
    Tables,
    side_ready,
)


@game_fn(inline="always")
def control(u, t, opts):
    """Who controls tile ``t`` now: -1 nobody, 0 Alliance, 1 Dragon Army.

    Printed: "A tile becomes controlled by one side either when all the opposing side's units
    are removed from that tile or when all the opposing side's units on that tile are shaken."
    Both at once (not printed) goes by ``opts[O_MUTUAL]`` (0 Army, 1 Alliance, 2 nobody)."""
    ar = side_ready(u, t, ALLIANCE)
    dr = side_ready(u, t, ARMY)
    if ar > 0 and dr > 0:
        return -1
    if ar == 0 and dr == 0:
        m = opts[O_MUTUAL]
        return 1 if m == 0 else (0 if m == 1 else -1)
    return ALLIANCE if dr == 0 else ARMY


@game_fn(inline="always")
def take_control(u, t, w, cmd):
    """Printed: "When a tile becomes controlled, remove all commanders from that tile. Then
    remove all shaken units from the defeated side." """
    cmd[t, 0] = 0
    cmd[t, 1] = 0
    d = 1 - w
    for l in range(3):
        u[t, d, l, S] = 0
        u[t, d, l, BS] = 0
        if u[t, d, l, R] == 0:
            u[t, d, l, TAC] = 0


@game_fn(inline="always")
def battle(gm, t, cmd_tab, tb):
    """One battle phase on tile ``t``; returns the side now controlling it (or -1).

    Skirmish ("1 battle line from each side fights", line and commander symbol from the
    skirmish die) with probability ``1 - fopts[F_P_ALL_OUT]``, else an all-out battle ("all 3
    lines fight in the following order: Foot, Missile, then Mounted"), whose commanders
    activate with probability ``fopts[F_P_ALL_OUT_CMD]`` (the event card decides). ``gm`` is
    the game (:class:`~.state.Game`), ``cmd_tab`` the commanders' powers, ``tb`` the rules
    (:class:`~.state.Tables`)."""
    u, cmd, st_f, opts, fopts = gm.u, gm.cmd, gm.st_f, tb.opts, tb.fopts
    pa = fopts[F_P_ALL_OUT]
    if pa <= 0.0:
        allout = False
    elif pa >= 1.0:
        allout = True
    else:
        allout = uniform(st_f) < pa
    if allout:
        fl = opts[O_CMD_LINE]  # "the fighting line" of a commander power (Foot by default)
        pc = fopts[F_P_ALL_OUT_CMD]
        cflag = pc >= 1.0 or (pc > 0.0 and uniform(st_f) < pc)
    else:
        f = below(st_f, tb.sk_line.shape[0])
        fl = tb.sk_line[f]
        cflag = tb.sk_cmd[f] != 0
    # (commanders tested first: without them the random flag costs no mispredicted branch)
    if (cmd[t, ARMY] == 1 or cmd[t, ALLIANCE] == 1) and cflag:
        # "If commanders on both sides are ready, activate the Dragon Army commander's powers
        # first."
        die = Die(tb.die_hits, tb.die_woe)
        # (one call site for the inlined power; a power changes no commander's state)
        for s in range(ARMY, ALLIANCE - 1, -1):
            if cmd[t, s] == 1:
                commander_power(u, t, s, fl, cmd_tab, die, opts, gm.stress, gm.g, gm.st_d)
    lo = 0 if allout else fl
    hi = 3 if allout else fl + 1
    for l in range(lo, hi):  # one call site keeps the inlined code small
        fight(gm, t, l, tb)
    return control(u, t, opts)


@game_fn
def battle_step(gm, t, cmd_tab, tb):
    """:func:`battle` as an ordinary (not inlined) call, for tests: one battle phase."""
    return battle(gm, t, cmd_tab, tb)


@game_fn(inline="always")
def reset_game(gm, su):
    """Start a game ``gm`` (:class:`~.state.Game`) from the position ``su``
    (:class:`~.state.Setup`): units, commanders and flank tokens from their starting arrays,
    no tile controlled, full decks, no stress.

    Every deck row is reset in full (``order[s, l, i] = i`` for all ``i``, also past the
    deck's size, which no draw reads): one loop of the same stores for every deck, which the
    compiler vectorises."""
    u, cmd, order, ptr, stress, g = gm.u, gm.cmd, gm.order, gm.ptr, gm.stress, gm.g
    nt = u.shape[0]
    for t in range(nt):
        gm.flank[t] = su.flank0[t]
        gm.ctl[t] = -1
        for s in range(2):
            cmd[t, s] = su.cmd0[t, s]
            for l in range(3):
                for f in range(5):
                    u[t, s, l, f] = su.u0[t, s, l, f]
    for s in range(2):
        for l in range(3):
            ptr[s, l] = 0
            for i in range(order.shape[2]):
                order[s, l, i] = i
    for h in range(stress.shape[0]):
        stress[h] = 0
    for i in range(g.shape[0]):
        g[i] = 0


@njit(cache=True)
def chunk_scratch(setup, tables, heroes):
    """A chunk's :class:`~.state.Game` scratch (for ``heroes`` heroes) and its own copies of
    the position and the rules. Returns ``(Game, Setup, Tables)``; an ordinary call, once a
    chunk (a record-taking function inlined into a ``prange`` body is miscompiled: see
    :mod:`.state`). The chunk function it hands them to sees them in fixed shapes
    (:func:`~.state.fixed`). (Plain loops: slice assignments cost more compile time.)"""
    u0, cmd_tab, cards, sizes = setup.u0, setup.cmd_tab, tables.cards, tables.sizes
    nt = u0.shape[0]
    m = cards.shape[2]
    u0c = np.empty((nt, 2, 3, 5), np.int64)
    tab = np.empty((nt, 2, 3), np.int64)
    cl = np.empty((2, 3, m, 5), np.int64)
    sz = np.empty((2, 3), np.int64)
    for s in range(2):
        for l in range(3):
            sz[s, l] = sizes[s, l]
            for t in range(nt):
                tab[t, s, l] = cmd_tab[t, s, l]
                for f in range(5):
                    u0c[t, s, l, f] = u0[t, s, l, f]
            for i in range(m):
                for f in range(5):
                    cl[s, l, i, f] = cards[s, l, i, f]
    gm = Game(
        np.empty((nt, 2, 3, 5), np.int64),
        np.empty((nt, 2), np.int64),
        np.zeros((2, 3, m), np.int64),
        np.zeros((2, 3), np.int64),
        np.empty(nt, np.int64),
        np.empty(nt, np.int64),
        np.zeros(max(1, heroes), np.int64),
        np.zeros(N_G, np.int64),
        np.zeros(1, np.uint64),
        np.zeros(1, np.uint64),
        np.zeros(1, np.uint64),
    )
    su = Setup(u0c, setup.cmd0, tab, setup.flank0)
    tb = Tables(
        cl,
        sz,
        tables.die_hits,
        tables.die_woe,
        tables.sk_line,
        tables.sk_cmd,
        tables.opts,
        tables.fopts,
    )
    return gm, su, tb


# numba caches a function only against its own file: flush this module's caches when a file it
# compiles in changes
guard_caches(
    sys.modules[__name__], [combat, commanders, dice, heroes, lines, state, random, _kernels]
)
