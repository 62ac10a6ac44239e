"""Dragon Lords movement and engagement (pp. 8-9; banking and turning between move phases,
advanced rules p.16): whether a move of the move tables fits the board and the other dragons
(the exact edges' other paths too), whether two dragons may engage, the speed a dragon may
choose and its record (the streak and cooldown, p.9), and applying a move.
"""

from __future__ import annotations

import sys

from .... import _kernels
from .... import random as _random
from ...._kernels import game_fn, guard_caches
from .. import hexes, movetables, state, tables
from ..hexes import adjacent_facing
from ..movetables import ALT_BOX, ALT_F, ALT_H, BK_LL, BK_LM, BK_TURNED, CARRY_GROUP, MR_ROWS
from ..state import (
    F_ALIVE,
    F_ALT,
    F_COOL,
    F_ENG,
    F_F,
    F_LAST,
    F_MAX,
    F_MIN,
    F_MOVED,
    F_MR,
    F_Q,
    F_QUICKEN,
    F_R,
    F_SLOW,
    F_SPEED,
    F_STREAK,
    F_TURNED,
    F_WINGS,
    OPT_ACCEL_WINGS,
    OPT_CRASH_VERY_LOW,
)
from ..tables import (
    S_ACCEL,
    S_ALTITUDE_LEVELS,
    S_BOARD_DEPTH,
    S_BOARD_WIDTH,
    S_COOLDOWN_FACTOR,
    S_QUICKEN_ALLOWANCE,
    S_QUICKEN_OVER_LAST,
    S_QUICKEN_OVER_MAX,
    S_SLOW_OVER_MIN,
    S_STREAK_MAX_TURNS,
    S_STREAK_THRESHOLD,
)
from . import to_hit
from .to_hit import is_enemy


@game_fn(inline="always")
def occupant(ds, i, q, r):
    """The dragon in play other than ``i`` standing in hex ``(q, r)``, or -1: "ends in an
    empty hex" (moves, landings, moves on the ground) asks this."""
    for j in range(ds.shape[0]):
        if j != i and ds[j, F_ALIVE] == 1 and ds[j, F_Q] == q and ds[j, F_R] == r:
            return j
    return -1


@game_fn(inline="always")
def hex_free(ds, i, q, r):
    """Does no dragon in play other than ``i`` stand in hex ``(q, r)``?"""
    return occupant(ds, i, q, r) < 0


@game_fn(forceinline=True)  # records: inlined by LLVM (see _kernels.inner_fn)
def move_fits(ds, i, e, dalt, mv, scal):
    """Is move-table entry ``e`` with altitude change ``dalt`` legal for dragon ``i`` now?
    ``mv``: the move tables (``MoveTables``); ``scal``: the rules scalars (the board's width
    and depth, the altitude levels).

    "Your dragon has a number of movement points corresponding exactly to the speed you
    recorded" (p.8); a climb or a dive moves 1 hex forward and "can only dive one altitude
    level at a time. A dragon may not dive lower than Very Low altitude" (p.8).

    Checks: at least ``|dalt|`` hexes flown (one altitude level per hex), altitude within
    Very Low..Very High, the path's bounding box on the board (rotated to the dragon's facing,
    offset-row parity aware), and the end hex not occupied by another dragon in play.
    """
    mv_box = mv.box
    h = mv.h[e]
    if dalt > h or -dalt > h:
        return False
    alt = ds[i, F_ALT] + dalt
    if alt < 1 or alt > scal[S_ALTITUDE_LEVELS]:
        return False
    f = ds[i, F_F]
    q0 = ds[i, F_Q]
    r0 = ds[i, F_R]
    p = r0 & 1
    col0 = q0 + (r0 - p) // 2
    if r0 + mv_box[e, f, 0] < 0 or r0 + mv_box[e, f, 1] >= scal[S_BOARD_DEPTH]:
        return False
    if col0 + mv_box[e, f, 2 + 2 * p] < 0 or col0 + mv_box[e, f, 3 + 2 * p] >= scal[S_BOARD_WIDTH]:
        return False
    return hex_free(ds, i, q0 + mv.rq[e, f], r0 + mv.rr[e, f])


@game_fn(inline="always")
def bank_fits(ds, i, e, dalt, mv_bk):
    """Banking (advanced rules, p.16): does entry ``e`` with altitude change ``dalt`` keep
    dragon ``i`` at Very Low or higher whatever the order of its dives and the levels its banks
    drop ("for every two banks in sequence, the dragon's altitude drops by one level ... A
    dragon can't bank twice in a row at Very Low altitude. This would cause the dragon to crash
    to the ground")? ``mv_bk[e, BK_LM]`` (``MoveTables.lm``) is 0 for a move without a drop
    (always True then: the check of :func:`move_fits` alone); the bots never crash by a bank."""
    lm = mv_bk[e, BK_LM]
    if lm == 0:
        return True
    down = dalt if dalt < 0 else 0
    return ds[i, F_ALT] + down - lm >= 1


@game_fn
def other_path_fits(e, f, q0, r0, adal, width, depth, mv_alt_off, mv_alt):
    """Does one of move-table entry ``e``'s alternative paths (``MoveTables.alt``) stay on a
    ``width`` x ``depth`` board for a dragon at ``(q0, r0)`` facing ``f``, flying at least
    ``adal`` hexes (one per level of altitude change)? The records hold even-row boxes; an odd
    row reads the opposite facing's, negated (the board turned half round)."""
    p = r0 & 1
    col0 = q0 + (r0 - p) // 2
    rlo = -r0
    rhi = depth - 1 - r0
    clo = -col0
    chi = width - 1 - col0
    if p == 1:
        f = (f + 3) % 6
        rlo, rhi, clo, chi = -rhi, -rlo, -chi, -clo
    for k in range(mv_alt_off[e], mv_alt_off[e + 1]):
        if (
            mv_alt[k, ALT_F] == f
            and mv_alt[k, ALT_H] >= adal
            and mv_alt[k, ALT_BOX] >= rlo
            and mv_alt[k, ALT_BOX + 1] <= rhi
            and mv_alt[k, ALT_BOX + 2] >= clo
            and mv_alt[k, ALT_BOX + 3] <= chi
        ):
            return True
    return False


@game_fn(forceinline=True)  # records: inlined by LLVM (see _kernels.inner_fn)
def move_fits_exact(ds, i, e, dalt, mv, scal):
    """:func:`move_fits` with the board edge checked exactly: the end state is reachable when
    SOME legal path to it ("a number of movement points corresponding exactly to the speed you
    recorded", p.8) stays on the board, the stored one or one of the entry's alternatives
    (:func:`other_path_fits`; tables built with ``edges=True``). A dragon leaves the board
    only when no such move exists (rule ``lords.board``: "A dragon that leaves the board is
    out of the game"; the campaign rules score "Leaving the board", p.28)."""
    if move_fits(ds, i, e, dalt, mv, scal):
        return True
    width, depth = scal[S_BOARD_WIDTH], scal[S_BOARD_DEPTH]
    h = mv.h[e]
    if dalt > h or -dalt > h:
        return False
    alt = ds[i, F_ALT] + dalt
    if alt < 1 or alt > scal[S_ALTITUDE_LEVELS]:
        return False
    f = ds[i, F_F]
    q0 = ds[i, F_Q]
    r0 = ds[i, F_R]
    q = q0 + mv.rq[e, f]
    r = r0 + mv.rr[e, f]
    if r < 0 or r >= depth or q + (r - (r & 1)) // 2 < 0 or q + (r - (r & 1)) // 2 >= width:
        return False  # no path ends off the board
    if not hex_free(ds, i, q, r):
        return False
    adal = dalt if dalt >= 0 else -dalt
    return other_path_fits(e, f, q0, r0, adal, width, depth, mv.alt_off, mv.alt)


@game_fn(inline="always")
def move_fits_as(exact, ds, i, e, dalt, mv, scal):
    """A bot's board-edge check: :func:`move_fits_exact` when ``exact``, else
    :func:`move_fits` (the stored path only: the check of the bots released before it)."""
    if exact:
        return move_fits_exact(ds, i, e, dalt, mv, scal)
    return move_fits(ds, i, e, dalt, mv, scal)


@game_fn
def can_engage(ds, i, j, opt):
    """The engagement conditions (Movement, "Engaging", p.9): ``i`` (which has just moved)
    ends adjacent to and facing ``j``, at the same altitude, not Very Low ("The dragons may
    not be at Very Low altitude"), ``j`` has already moved, neither is engaged ("Only two
    dragons may be engaged in any one fight"), and they are enemies. In the advanced rules
    two dragons at Very Low may engage and crash (``OPT_CRASH_VERY_LOW``, p.17), and "Close
    combat can happen between two dragons on the ground as well" (p.17)."""
    alt = ds[i, F_ALT]
    return (
        is_enemy(ds, i, j)
        and ds[j, F_MOVED] == 1
        and ds[i, F_ENG] < 0
        and ds[j, F_ENG] < 0
        and alt == ds[j, F_ALT]
        and (alt > 1 or alt == 0 or opt[OPT_CRASH_VERY_LOW] == 1)
        and adjacent_facing(ds[i, F_Q], ds[i, F_R], ds[i, F_F], ds[j, F_Q], ds[j, F_R])
    )


@game_fn
def speed_limits(ds, i, scal, accel_wings, opt):
    """``(lo, hi)`` for the speed dragon ``i`` may record this turn (Record Speed, p.7).

    "within the minimum and maximum speed"; "can't be more than 3 points faster than you moved
    last turn" (first turn: any speed); "speeds of 10 or more for a maximum of three consecutive
    turns"; after slowing, "two turns at speed 9 or less for every turn it spent at or above 10".
    """
    lo = ds[i, F_MIN]
    hi = ds[i, F_MAX]
    if ds[i, F_LAST] >= 0:
        acc = scal[S_ACCEL]
        if opt[OPT_ACCEL_WINGS] == 1:
            acc = accel_wings[ds[i, F_WINGS]]
        if ds[i, F_LAST] + acc < hi:
            hi = ds[i, F_LAST] + acc
    quick = ds[i, F_QUICKEN] > 0
    if quick:
        # Quicken (p.25): "record a speed 5 points greater than its previous turn's speed
        # ... add +2 to the dragon's acceleration allowance ... up to 2 greater than its
        # maximum speed"
        hi = ds[i, F_MAX] + scal[S_QUICKEN_OVER_MAX]
        if ds[i, F_LAST] >= 0:
            acc = scal[S_QUICKEN_OVER_LAST]
            if opt[OPT_ACCEL_WINGS] == 1:
                acc = accel_wings[ds[i, F_WINGS]] + scal[S_QUICKEN_ALLOWANCE]
            if ds[i, F_LAST] + acc < hi:
                hi = ds[i, F_LAST] + acc
    thr = scal[S_STREAK_THRESHOLD]
    if ds[i, F_STREAK] >= scal[S_STREAK_MAX_TURNS] or ds[i, F_COOL] > 0:
        if hi > thr - 1:
            hi = thr - 1
    if ds[i, F_SLOW] > 0:
        # Slow (p.25): "record a speed of only up to 2 greater than its minimum speed"
        if hi > lo + scal[S_SLOW_OVER_MIN]:
            hi = lo + scal[S_SLOW_OVER_MIN]
    if hi < lo:
        hi = lo
    return lo, hi


@game_fn
def record_speed(ds, i, speed, scal):
    """Record ``speed`` and advance the speed-10 streak / cool-down bookkeeping (p.7: "two
    turns at speed 9 or less for every turn it spent at or above 10"; ``F_COOL`` counts the
    turns still owed)."""
    thr = scal[S_STREAK_THRESHOLD]
    ds[i, F_SPEED] = speed
    if speed >= thr:
        ds[i, F_STREAK] += 1
    else:
        if ds[i, F_STREAK] > 0:
            # this turn is the first of the 2-per-turn cool-down
            ds[i, F_COOL] = scal[S_COOLDOWN_FACTOR] * ds[i, F_STREAK] - 1
            ds[i, F_STREAK] = 0
        elif ds[i, F_COOL] > 0:
            ds[i, F_COOL] -= 1
    ds[i, F_LAST] = speed


@game_fn
def apply_move(ds, i, e, dalt, mv_rq, mv_rr, mv_f, mv_bk):
    """Move dragon ``i`` by move-table entry ``e`` (:mod:`~dragonsim.lords.game.movetables`) and
    altitude change ``dalt``, less the levels its banks drop (``mv_bk[e, BK_LL]``, p.16); it
    has now moved this turn (p.8), and carries the turn the move left in its last hex
    (``mv_bk[e, BK_TURNED]``: turning between move phases, p.16)."""
    f0 = ds[i, F_F]
    ds[i, F_Q] += mv_rq[e, f0]
    ds[i, F_R] += mv_rr[e, f0]
    ds[i, F_F] = (f0 + mv_f[e]) % 6
    ds[i, F_ALT] += dalt - mv_bk[e, BK_LL]
    ds[i, F_MOVED] = 1
    ds[i, F_TURNED] = mv_bk[e, BK_TURNED]  # (0 without turning between move phases)


@game_fn
def move_row(ds, i):
    """The move-table row of dragon ``i``'s move now: its maneuverability's, in the row group
    of the turn it carries (turning between move phases, p.16: ``F_TURNED``; always group 0
    without the rule)."""
    return ds[i, F_MR] + MR_ROWS * CARRY_GROUP[ds[i, F_TURNED] + 3]


# the parts it calls (and theirs), and every module the mechanics read
guard_caches(sys.modules[__name__], [to_hit, hexes, movetables, state, tables, _random, _kernels])
