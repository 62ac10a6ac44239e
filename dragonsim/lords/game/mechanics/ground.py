"""Dragon Lords on the ground (advanced rules, p.17): crashes (by damage, after a close
combat), the body part a crash or a hit lands on, taking off and landing, and moving on the
ground.
"""

from __future__ import annotations

import sys

from .... import _kernels
from .... import random as _random
from ...._kernels import game_fn, guard_caches
from .. import hexes, movetables, state, tables
from ..hexes import distance, neighbour, on_board
from ..state import (
    F_ALT,
    F_DP,
    F_F,
    F_MAX,
    F_MIN,
    F_Q,
    F_R,
    F_SPEED,
    F_STUCK,
    OPT_CRASH_SLOW,
    OPT_CRASH_ZEROED,
    OPT_TAKEOFF_OVER_MAX,
    PART_BODY,
    PART_HEAD,
    PART_LEFT_WING,
    PART_RIGHT_WING,
    PART_TAIL,
)
from ..tables import (
    S_CC_SPEED_LOSS,
    S_TAKEOFF_MAX_SPEED,
    S_TAKEOFF_OVER_MIN,
)
from . import moves, to_hit
from .moves import hex_free


@game_fn(inline="always")
def stuck_on_ground(ds, i):
    """May dragon ``i`` on the ground not move from its hex ("it may turn in that hex but it
    may not move from it", p.17)? A zeroed tail or wing keeps it there
    (:func:`crashes_by_damage`), and with the reading ``lords.crash_stuck = every-crash``
    any crash does (``F_STUCK``)."""
    return crashes_by_damage(ds, i) or ds[i, F_STUCK] == 1


@game_fn(inline="always")
def crashes_by_damage(ds, i):
    """Is a zeroed tail or wing keeping dragon ``i`` from flying ("it will crash to the
    ground as it can no longer fly", p.17)? Such a dragon "may turn in that hex but it may
    not move from it" and never takes off again (p.22)."""
    return (
        ds[i, F_DP + PART_TAIL] <= 0
        or ds[i, F_DP + PART_LEFT_WING] <= 0
        or ds[i, F_DP + PART_RIGHT_WING] <= 0
    )


@game_fn(inline="always")
def hit_part(ds, t, part, opt):
    """The part that takes a hit on ``t``'s ``part``: "Any additional damage to a tail or
    wing after that part has been reduced to 0 transfers to the body instead" (p.17, with
    ``OPT_CRASH_ZEROED``; the basic rules remove the dragon first)."""
    if opt[OPT_CRASH_ZEROED] == 1 and part != PART_HEAD and part != PART_BODY:
        if ds[t, F_DP + part] <= 0:
            return PART_BODY
    return part


@game_fn(inline="always")
def crash_after_combat(ds, i, opt, scal):
    """Does ``i`` crash after a close combat in the air ("If the mandatory two-step loss of
    speed in close combat brings a dragon's speed below its minimum speed, that dragon will
    crash", ``OPT_CRASH_SLOW``, p.17)? Reads the speed it recorded this turn."""
    return opt[OPT_CRASH_SLOW] == 1 and ds[i, F_SPEED] - scal[S_CC_SPEED_LOSS] < ds[i, F_MIN]


@game_fn
def takeoff_limits(ds, i, scal, opt):
    """``(lo, hi)`` of a take-off speed: "at least 1 point more than the dragon's minimum speed
    and no higher than 7" (p.17), and not above its maximum speed now (the reading
    ``lords.takeoff_speed``: the rulebook names no exception to the maximum; with
    ``OPT_TAKEOFF_OVER_MAX`` 7 alone caps it); ``hi < lo`` when it cannot take off at all."""
    lo = ds[i, F_MIN] + scal[S_TAKEOFF_OVER_MIN]
    hi = scal[S_TAKEOFF_MAX_SPEED]
    if ds[i, F_MAX] < hi and opt[OPT_TAKEOFF_OVER_MAX] == 0:
        hi = ds[i, F_MAX]
    return lo, hi


@game_fn
def takeoff_path(ds, i, width, depth):
    """``(fits, q, r)``: the take-off's leap for dragon ``i`` on the ground: "climb to Very Low
    altitude and move a number of hexes in a straight line equal to its minimum speed ...
    before it may turn or climb" (p.17). ``(q, r)`` is where the leap ends; it fits when every
    hex of it is on the board."""
    q = ds[i, F_Q]
    r = ds[i, F_R]
    fits = True
    for _ in range(ds[i, F_MIN]):
        q, r = neighbour(q, r, ds[i, F_F])
        if not on_board(q, r, width, depth):
            fits = False
    return fits, q, r


@game_fn
def may_take_off(ds, i, width, depth):
    """Can dragon ``i`` on the ground take off now and be sure of a legal move? Not with a
    zeroed tail or wing ("If only a tail or wing track has been reduced to 0 points, it must
    stay where it's at", p.22), and only when its leap stays on the board and ends in a free
    hex (a take-off speed of minimum + 1 leaves no point to move on from there). The bots
    ask this before recording a take-off speed, so they never fly off by choice. A dragon
    stuck in its hex (:func:`stuck_on_ground`) never takes off."""
    if stuck_on_ground(ds, i):
        return False
    fits, q, r = takeoff_path(ds, i, width, depth)
    return fits and hex_free(ds, i, q, r)


@game_fn
def landing_hex(ds, i, e, dalt, mv_rq, mv_rr, mv_f, width, depth):
    """``(fits, q, r)``: the hex dragon ``i`` lands in after flying move-table entry ``e`` with
    altitude change ``dalt`` ("by moving forward 1 hex and spending 1 point. This must be the
    dragon's last point", p.17): the hex ahead of the flight's end, which must be at Very Low,
    on the board and free."""
    f0 = ds[i, F_F]
    q = ds[i, F_Q] + mv_rq[e, f0]
    r = ds[i, F_R] + mv_rr[e, f0]
    q, r = neighbour(q, r, (f0 + mv_f[e]) % 6)
    fits = ds[i, F_ALT] + dalt == 1 and on_board(q, r, width, depth) and hex_free(ds, i, q, r)
    return fits, q, r


@game_fn
def ground_fits(ds, i, q, r, reach, width, depth):
    """May dragon ``i`` on the ground end its move in ``(q, r)``? "The dragon can move up to
    this number of hexes along the ground. It can move part or all of this number, or it can
    opt to not move at all" (p.17): within ``reach`` hexes (0 for a dragon a zeroed tail or
    wing keeps in its hex), on the board, free. Any hex within reach has a shortest path on
    the board, and turns are free, so the distance is all that counts."""
    return (
        distance(ds[i, F_Q], ds[i, F_R], q, r) <= reach
        and on_board(q, r, width, depth)
        and hex_free(ds, i, q, r)
    )


# the parts it calls (and theirs), and every module the mechanics read
guard_caches(
    sys.modules[__name__], [moves, to_hit, hexes, movetables, state, tables, _random, _kernels]
)
