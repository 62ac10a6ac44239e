"""The game log: one row per decision or event (``K_*`` kinds, ``L_*`` columns of
:mod:`~dragonsim.lords.game.state`) while a logged game (tests, replays, scripts) has room;
a plain duel passes ``log = None`` and none of this is compiled in."""

from __future__ import annotations

import sys

from ..._kernels import game_fn
from ..game.hexes import arc_area, distance
from ..game.state import (
    F_ALIVE,
    F_ALT,
    F_BREATH,
    F_CLAW,
    F_DP,
    F_ENG,
    F_F,
    F_MAX,
    F_MOVED,
    F_MR,
    F_Q,
    F_R,
    K_EFFECT,
    L_A,
    L_I,
    L_J,
    L_KIND,
    L_SNAP,
    L_TURN,
    N_PARTS,
    N_SNAP,
)
from .inputs import guard


@game_fn
def log_row(log, ds, turn, kind, i, j):
    """Start the next decision-log row (``L_*``: turn, kind, the dragons, a snapshot of every
    dragon before the decision) and return its index, or -1 when the log is full (a plain
    duel passes a log of 0 rows). The caller writes the kind's values at ``L_A``."""
    k = log.n[0]
    if k >= log.rows.shape[0]:
        return -1
    log.rows[k, L_TURN] = turn
    log.rows[k, L_KIND] = kind
    log.rows[k, L_I] = i
    log.rows[k, L_J] = j
    for d in range(ds.shape[0]):
        base = L_SNAP + N_SNAP * d
        log.rows[k, base + 0] = ds[d, F_Q]
        log.rows[k, base + 1] = ds[d, F_R]
        log.rows[k, base + 2] = ds[d, F_F]
        log.rows[k, base + 3] = ds[d, F_ALT]
        log.rows[k, base + 4] = ds[d, F_ALIVE]
        log.rows[k, base + 5] = ds[d, F_ENG]
        log.rows[k, base + 6] = ds[d, F_MOVED]
    log.n[0] = k + 1
    return k


@game_fn
def points_left(ds, i):
    """Dragon ``i``'s damage points left, all parts."""
    t = 0
    for p in range(N_PARTS):
        t += ds[i, F_DP + p]
    return t


#: the state columns a serious damage effect changes (p.12), as K_EFFECT rows log them
EFFECT_COLUMNS = (F_BREATH, F_CLAW, F_MR, F_MAX, F_ALIVE)


@game_fn
def log_effects_before(scratch, ds, i):
    """Keep dragon ``i``'s effect columns (:data:`EFFECT_COLUMNS`) in ``scratch`` (the
    planners' scratch, idle while a combat resolves) for :func:`log_effects`."""
    for c in range(5):
        scratch[5 * i + c] = ds[i, EFFECT_COLUMNS[c]]


@game_fn
def log_effects(log, scratch, ds, turn, i):
    """A K_EFFECT row for dragon ``i`` when a serious damage effect or its removal changed it
    since :func:`log_effects_before`."""
    changed = False
    for c in range(5):
        if ds[i, EFFECT_COLUMNS[c]] != scratch[5 * i + c]:
            changed = True
    if not changed:
        return
    r = log_row(log, ds, turn, K_EFFECT, i, -1)
    if r >= 0:
        for c in range(5):
            log.rows[r, L_A + c] = ds[i, EFFECT_COLUMNS[c]]
            log.rows[r, L_A + 5 + c] = scratch[5 * i + c]


@game_fn
def log_geometry(log, r, ds, a, t, arc):
    """A K_BREATH row's range and arc area (``L_A + 9``, ``L_A + 10``: the hexes from ``a``
    to ``t`` and the area of ``a``'s arc of fire ``t`` stands in, 0 dark 1 grey 2 light, -1
    out of arc; pp. 10-11), as the to-hit number counted them."""
    log.rows[r, L_A + 9] = distance(ds[a, F_Q], ds[a, F_R], ds[t, F_Q], ds[t, F_R])
    log.rows[r, L_A + 10] = arc_area(
        ds[a, F_Q], ds[a, F_R], ds[a, F_F], ds[t, F_Q], ds[t, F_R], arc[3], arc[4], arc[5]
    )


guard(sys.modules[__name__])
