""" "1. Initiative" (p.7): 2d6 each, the lowest moves first; ties are rolled off within the
tied group (:func:`order_by_rolls`). With the optional initiative modifiers (p.15) the rolls
are modified, and a roll-off reads them under the reading ``lords.initiative_tie``."""

from __future__ import annotations

import sys

import numpy as np

from ..._kernels import game_fn
from ..game.mechanics import (
    roll_dice,
)
from ..game.state import (
    C_DICE,
    F_ALIVE,
    F_DAZED,
    F_ENG,
    F_ENGAGER,
    F_INIT,
    F_MOVED,
    F_MR,
    F_TARGET,
    MAXD,
    OPT_INIT_MOD,
    OPT_INIT_TIE_MODIFIED,
)
from ..game.tables import (
    S_DAZED_INIT,
)
from .inputs import guard

#: initiative keys are rolls times this, so that a roll-off (2d6, at most 12) added within a
#: tied group orders the group without reaching the next roll
TIE_SCALE = 64


@game_fn
def order_by_rolls(order, key, n, st, cnt, mods, modified):
    """Sort ``order[:n]`` by ``key`` ascending, rolling 2d6 again within ties ("roll off as many
    times as is necessary"); with ``modified`` each roll-off adds ``mods[dragon]`` (the
    reading ``lords.initiative_tie = modified``: the initiative roll's own modifiers)."""
    while True:
        # insertion sort by key
        for a in range(1, n):
            k = key[a]
            o = order[a]
            b = a - 1
            while b >= 0 and key[b] > k:
                key[b + 1] = key[b]
                order[b + 1] = order[b]
                b -= 1
            key[b + 1] = k
            order[b + 1] = o
        tie = False
        for a in range(1, n):
            if key[a] == key[a - 1]:
                tie = True
        if not tie:
            return
        # re-key by rank (x TIE_SCALE) and add a fresh 2d6 inside each tied group
        mask = 0
        for a in range(n):
            if (a > 0 and key[a] == key[a - 1]) or (a + 1 < n and key[a] == key[a + 1]):
                mask |= 1 << a
        rank = 0
        prev = key[0]
        for a in range(n):
            if key[a] != prev:
                rank += 1
                prev = key[a]
            key[a] = rank * TIE_SCALE
        for a in range(n):
            if (mask >> a) & 1:
                key[a] += roll_dice(st, 2)
                cnt[C_DICE] += 2
                if modified:
                    # centred in its rank's room, so that no modifier reaches another rank
                    key[a] += TIE_SCALE // 2 + mods[order[a]]


@game_fn
def initiative(ds, nd, run, w, cnt):
    """ "1. Initiative" (p.7): "Each player rolls 2d6 ... Players with lower numbers move before
    players with higher ones", ties rolled off (:func:`_order_by_rolls`); with the optional
    rule (``OPT_INIT_MOD``, p.15) the roll is modified by maneuverability, and a dazed
    dragon's by -2 a daze (critical hits, optional rules, p.19). Also clears last turn's
    engagements and targets. Returns the number of dragons in play; ``w.order[:na]``
    is the order and ``F_INIT`` each dragon's place in it."""
    opt, tb = run.opt, run.tb
    order = w.order
    key = w.key
    mods = w.key[MAXD:]  # each dragon's modifiers, for a modified roll-off
    na = np.int64(0)  # int64, not a literal (see play_game)
    for i in range(nd):
        ds[i, F_MOVED] = 0
        ds[i, F_ENG] = -1
        ds[i, F_ENGAGER] = -1
        ds[i, F_TARGET] = -1
        if ds[i, F_ALIVE] == 1:
            order[na] = i
            m = np.int64(0)
            if opt[OPT_INIT_MOD] == 1:
                m += tb.init_mod[ds[i, F_MR]]
            if ds[i, F_DAZED] > 0:
                # "Dazed! -2 to initiative roll for remainder of game" (optional rules, p.19)
                m += tb.scalars[S_DAZED_INIT] * ds[i, F_DAZED]
            mods[i] = m
            key[na] = (roll_dice(w.gst, 2) + m) * TIE_SCALE
            cnt[C_DICE] += 2
            na += 1
    order_by_rolls(order, key, na, w.gst, cnt, mods, opt[OPT_INIT_TIE_MODIFIED] == 1)
    for k in range(na):
        ds[order[k], F_INIT] = k
    return na


guard(sys.modules[__name__])
