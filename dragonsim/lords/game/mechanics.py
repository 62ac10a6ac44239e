"""Dragon Lords rules mechanics (basic rules, rulebook pp. 7-13), one small function each.

Every function here takes the dice it needs as arguments (a roll's sum, a d6 face), so a test
can force any roll (the Example of Play, pp. 36-37) and the pure-Python reference in the tests
can be fed the same numbers. They read and write the dragon state rows of
:mod:`dragonsim.lords.game.state` and the rules tables
(:class:`~dragonsim.lords.game.tables.KernelTables` fields and its ``scalars``); none
allocates (:func:`dragonsim._kernels.game_fn`).
"""

from __future__ import annotations

import sys

import numpy as np

from ... import _kernels
from ... import random as _random
from ..._kernels import game_fn, guard_caches
from ...random import below, d6, roll
from . import hexes, movetables, state, tables
from .hexes import adjacent_facing, arc_area, distance, may_breathe_angle, neighbour, on_board
from .movetables import ALT_BOX, ALT_F, ALT_H, BK_LL, BK_LM, BK_TURNED, CARRY_GROUP, MR_ROWS
from .state import (
    CE_DAZED,
    CE_HEAD,
    CE_KILLED,
    CE_LEG,
    CE_RIDER,
    CE_WING,
    F_ABSORBED,
    F_ALIVE,
    F_ALT,
    F_BREATH,
    F_BREATH0,
    F_CC_ADJ,
    F_CLAW,
    F_CLAW0,
    F_COOL,
    F_CRIT_BREATH,
    F_CRIT_KILLED,
    F_CRIT_MR,
    F_DAZED,
    F_DEALT,
    F_DP,
    F_DP0,
    F_ENG,
    F_F,
    F_LAST,
    F_LEGS,
    F_MAX,
    F_MAX0,
    F_MIN,
    F_MOVED,
    F_MR,
    F_MR0,
    F_Q,
    F_QUICKEN,
    F_R,
    F_RIDER,
    F_RTARGET,
    F_SHIELD,
    F_SLOW,
    F_SPEED,
    F_SPELL_CLAW,
    F_SPELL_MR,
    F_STREAK,
    F_STUCK,
    F_TEAM,
    F_TOHIT,
    F_TURNED,
    F_WINGS,
    FD_BAD_VALUE,
    FD_CURSOR,
    FD_END,
    FD_ERR_DICE,
    FD_ERR_ROLL,
    FD_ERR_TURN,
    FD_ERR_VALUE,
    FD_ERROR,
    FD_NROLLS,
    FD_OK,
    FD_PER_TURN,
    FD_RAN_OUT,
    FD_ROLLS_AT,
    FD_STARTS,
    FD_TURN,
    FD_TURN_ASKED_AT,
    FD_TURN_START,
    FD_TURNS,
    OPT_ACCEL_WINGS,
    OPT_CRASH_SLOW,
    OPT_CRASH_VERY_LOW,
    OPT_CRASH_ZEROED,
    OPT_DULL_TO_BLUNT,
    OPT_RIDER_AT_ENGAGED,
    OPT_RIDER_DEATHS,
    OPT_RIDERS,
    OPT_TAKEOFF_OVER_MAX,
    PART_BODY,
    PART_HEAD,
    PART_LEFT_WING,
    PART_RIGHT_WING,
    PART_TAIL,
    SPELL_BOLT,
    SPELL_FIREBALL,
)
from .tables import (
    ALT_MOD_GROUND,
    S_ACCEL,
    S_BREATH_STEPS_LOST,
    S_BROKEN_LEGS,
    S_CC_ALTITUDE_DROP,
    S_CC_SPEED_LOSS,
    S_CLAW_STEPS_LOST,
    S_COOLDOWN_FACTOR,
    S_LANCER_CC,
    S_LANCER_DAMAGE,
    S_MR_STEPS_LOST,
    S_QUICKEN_ALLOWANCE,
    S_QUICKEN_OVER_LAST,
    S_QUICKEN_OVER_MAX,
    S_RIDER_GROUND_MOD,
    S_RIDER_HIT_ROLL,
    S_RIDER_LONG_MOD,
    S_RIDER_MEDIUM_MOD,
    S_SELF_DAMAGE_POLICY,
    S_SELF_TARGET,
    S_SERIOUS_DEN,
    S_SERIOUS_NUM,
    S_SLOW_OVER_MIN,
    S_SPEED_LOST_PER_WING,
    S_STREAK_MAX_TURNS,
    S_STREAK_THRESHOLD,
    S_TAKEOFF_MAX_SPEED,
    S_TAKEOFF_OVER_MIN,
)

# ---- dice ---------------------------------------------------------------------------------------
# Every Lords roll goes through these three: numba inlines dragonsim.random's generator (an
# ``inline="always"`` function) into each of them once, and callers make plain calls that LLVM
# inlines, instead of numba typing the generator again at each of some forty call sites.
# A scripted game (:mod:`dragonsim.lords.views.script`) hands the game loop a stream of more than
# one cell, its forced dice (``FD_*``): the two rolls then read the next forced roll instead of
# drawing. A seeded stream is one cell, so an ordinary game pays one well-predicted compare a
# roll. ``draw_below`` draws only from the setup and policy streams, which a scripted game
# does not use for decisions (its placement is its scenario), so it is never forced.


@game_fn
def roll_dice(st, n):
    """The sum of ``n`` d6 from stream ``st`` (:func:`dragonsim.random.roll`), or a scripted
    game's next forced roll (:func:`forced_roll`)."""
    if st.shape[0] > 1:
        return forced_roll(st, n)
    return roll(st, n)


@game_fn
def roll_d6(st):
    """One d6 from stream ``st`` (:func:`dragonsim.random.d6`), or a scripted game's next
    forced roll."""
    if st.shape[0] > 1:
        return forced_roll(st, 1)
    return d6(st)


@game_fn
def _cell(st, k):
    return np.int64(st[k])


@game_fn
def forced_roll(st, n):
    """The next forced roll of ``n`` d6 from a scripted game's dice ``st`` (``FD_*`` cells).
    A roll of no dice is 0 and reads nothing. When this turn's rolls are used up, or the
    roll is not a sum ``n`` d6 can show, the first such error is kept in the header and the
    roll reads as ``n`` (every die a 1), so the game can finish and the caller can name the
    turn and roll (:func:`dragonsim.lords.views.script.play_script`)."""
    if n <= 0:
        return np.int64(0)
    k = _cell(st, FD_CURSOR)
    st[FD_CURSOR] = np.uint64(k + 1)
    if k >= _cell(st, FD_END):
        _forced_error(st, FD_RAN_OUT, k, n, 0)
        return np.int64(n)
    at = _cell(st, FD_ROLLS_AT) + k
    v = _cell(st, at)
    st[at + _cell(st, FD_NROLLS)] = np.uint64(n)
    if v < n or v > 6 * n:
        _forced_error(st, FD_BAD_VALUE, k, n, v)
        return np.int64(n)
    return v


@game_fn
def _forced_error(st, code, k, n, v):
    if _cell(st, FD_ERROR) == FD_OK:
        st[FD_ERROR] = np.uint64(code)
        st[FD_ERR_TURN] = st[FD_TURN]
        st[FD_ERR_ROLL] = np.uint64(k)
        st[FD_ERR_DICE] = np.uint64(n)
        st[FD_ERR_VALUE] = np.uint64(v)


@game_fn
def forced_turn(st, turn):
    """A new turn of a scripted game: count the rolls the last turn asked for, and point the
    dice at this turn's rolls (given turn by turn) or keep reading the one list. Nothing for a
    seeded stream."""
    if st.shape[0] <= 1:
        return
    prev = _cell(st, FD_TURN)
    asked = _cell(st, FD_TURN_ASKED_AT)
    if prev > 0:
        st[asked + prev] = np.uint64(_cell(st, FD_CURSOR) - _cell(st, FD_TURN_START))
    st[FD_TURN] = np.uint64(turn)
    nt = _cell(st, FD_TURNS)
    if _cell(st, FD_PER_TURN) == 1:
        t = turn if turn <= nt else nt + 1
        start = _cell(st, FD_STARTS + t)
        end = _cell(st, FD_STARTS + t + 1) if turn <= nt else start
        st[FD_CURSOR] = np.uint64(start)
        st[FD_END] = np.uint64(end)
    else:
        st[FD_END] = st[FD_NROLLS]
    st[FD_TURN_START] = st[FD_CURSOR]


@game_fn
def draw_below(st, k):
    """A uniform integer ``0..k-1`` from stream ``st`` (:func:`dragonsim.random.below`)."""
    return below(st, k)


# ---- breath combat: who may be breathed at, and the number to roll ------------------------------


@game_fn
def target_number(ds, a, t, qa, ra, fa, alta, tb_base, arc, range_mod, alt_mod, max_range):
    """Breath target number of ``a`` (placed at qa, ra, fa, alta) against ``t`` where ``t``
    stands now; -1 when ``t`` cannot be breathed at (arc, range, neck bend).

    "Start with the base number 8 and modify this number appropriately, using the To-Hit
    Modifiers Table" (p.10): the target's size (wings and body rows, ``F_TOHIT``), the arc area
    it stands in, the Range Key and the altitude difference (p.11), and in the advanced rules
    "If the attacker is on the ground, it gets a -1 to its attack number" (p.19; altitude 0
    is only reached under them). "A dragon can only breathe at a target in its arc of fire
    and within 6 hexes" (p.10)."""
    dist = distance(qa, ra, ds[t, F_Q], ds[t, F_R])
    if dist < 1 or dist > max_range:
        return -1
    da = alta - ds[t, F_ALT]
    if not may_breathe_angle(dist, da):
        return -1
    area = arc_area(qa, ra, fa, ds[t, F_Q], ds[t, F_R], arc[3], arc[4], arc[5])
    if area < 0:
        return -1
    if da < 0:
        da = -da
    tn = tb_base + ds[t, F_TOHIT] + arc[area] + range_mod[dist] + alt_mod[da]
    if alta == 0:
        tn += alt_mod[ALT_MOD_GROUND]  # "Attacker is on the Ground" (advanced rules, p.19)
    return tn


@game_fn(inline="always")
def is_enemy(ds, i, j):
    """Is ``j`` another dragon in play on a different team from ``i``?"""
    return j != i and ds[j, F_ALIVE] == 1 and ds[j, F_TEAM] != ds[i, F_TEAM]


# ---- riders (advanced rules, p.18) --------------------------------------------------------------


@game_fn
def rider_target_number(ds, a, t, tb_base, alt_mod, rider_range, scal):
    """``(target number, band)`` of ``a``'s rider shooting at ``t`` (band 0 medium, 1 long);
    ``(-1, -1)`` when ``a``'s rider has no ranged attack or ``t`` is out of its reach.

    "Riders may shoot their weapons ... at any target within range. The attack is handled like
    a dragon's breath weapon attack. Riders have a full 360 deg arc of fire" (p.18): base 8,
    the target's size and the altitude difference as for breath, no arc area, and for the
    range the Rider Abilities Table's bands: within the medium range ``S_RIDER_MEDIUM_MOD``,
    beyond it up to the long range ``S_RIDER_LONG_MOD`` (rule ``lords.rider_to_hit``). The
    neck bend (p.10) is the dragon's, not the rider's, and does not apply. A rider on a dragon
    on the ground takes the grounded attacker's -1 (p.19) as a breath would, unless the
    reading ``lords.rider_ground_attacker`` is "none" (``S_RIDER_GROUND_MOD``)."""
    kind = ds[a, F_RIDER]
    reach = rider_range[kind, 1]
    dist = distance(ds[a, F_Q], ds[a, F_R], ds[t, F_Q], ds[t, F_R])
    if reach <= 0 or dist < 1 or dist > reach:
        return np.int64(-1), np.int64(-1)
    band = np.int64(0) if dist <= rider_range[kind, 0] else np.int64(1)
    da = ds[a, F_ALT] - ds[t, F_ALT]
    if da < 0:
        da = -da
    mod = scal[S_RIDER_MEDIUM_MOD] if band == 0 else scal[S_RIDER_LONG_MOD]
    if ds[a, F_ALT] == 0:
        mod += scal[S_RIDER_GROUND_MOD]  # as for breath (rule lords.rider_ground_attacker)
    return tb_base + ds[t, F_TOHIT] + alt_mod[da] + mod, band


@game_fn
def may_shoot_at(ds, a, t, opt):
    """May ``a``'s rider shoot at ``t``? An enemy in play; "A rider may even shoot ... while
    its dragon is engaged in close combat, either at its dragon's opponent or at any other
    target within range" (p.18). A dragon engaged with another stays out of reach as for
    breath ("dragons not involved in close combat may not breathe on dragons that are
    engaged", p.10), unless ``OPT_RIDER_AT_ENGAGED`` (rule ``lords.rider_at_engaged``)."""
    if not is_enemy(ds, a, t):
        return False
    e = ds[t, F_ENG]
    return e < 0 or e == a or opt[OPT_RIDER_AT_ENGAGED] == 1


@game_fn
def rider_at_risk(ds, t, part, opt):
    """ "Whenever a dragon's body is hit in breath or close combat, roll 2d6 ... If the
    result is a 7, the rider has been hit instead of the dragon" (p.18): does a hit on
    ``t``'s ``part`` roll for its rider? (``OPT_RIDER_DEATHS``; a rider attack is "handled
    like a dragon's breath weapon attack", so its body hits roll too.)"""
    return opt[OPT_RIDER_DEATHS] == 1 and part == PART_BODY and ds[t, F_RIDER] > 0


@game_fn
def rider_check(ds, t, roll, scal):
    """The rider check's 2d6 ``roll`` for ``t``: on ``S_RIDER_HIT_ROLL`` (7) "the rider is
    instantly killed. The dragon takes no damage from the attack" (p.18). Returns True when
    the rider was killed (the hit then does no damage)."""
    if roll == scal[S_RIDER_HIT_ROLL]:
        ds[t, F_RIDER] = 0
        ds[t, F_RTARGET] = -1  # a rider killed before its action loses it
        return True
    return False


# ---- movement and engagement --------------------------------------------------------------------


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


@game_fn
def move_fits(ds, i, e, dalt, mv_h, mv_rq, mv_rr, mv_box, width, depth, alt_levels):
    """Is move-table entry ``e`` with altitude change ``dalt`` legal for dragon ``i`` now?

    "Your dragon has a number of movement points corresponding exactly to the speed you
    recorded" (p.8); a climb or a dive moves 1 hex forward and "can only dive one altitude
    level at a time. A dragon may not dive lower than Very Low altitude" (p.8).

    Checks: at least ``|dalt|`` hexes flown (one altitude level per hex), altitude within
    Very Low..Very High, the path's bounding box on the board (rotated to the dragon's facing,
    offset-row parity aware), and the end hex not occupied by another dragon in play.
    """
    h = mv_h[e]
    if dalt > h or -dalt > h:
        return False
    alt = ds[i, F_ALT] + dalt
    if alt < 1 or alt > alt_levels:
        return False
    f = ds[i, F_F]
    q0 = ds[i, F_Q]
    r0 = ds[i, F_R]
    p = r0 & 1
    col0 = q0 + (r0 - p) // 2
    if r0 + mv_box[e, f, 0] < 0 or r0 + mv_box[e, f, 1] >= depth:
        return False
    if col0 + mv_box[e, f, 2 + 2 * p] < 0 or col0 + mv_box[e, f, 3 + 2 * p] >= width:
        return False
    return hex_free(ds, i, q0 + mv_rq[e, f], r0 + mv_rr[e, f])


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


@game_fn
def move_fits_exact(
    ds, i, e, dalt, mv_h, mv_rq, mv_rr, mv_box, mv_alt_off, mv_alt, width, depth, alt_levels
):
    """:func:`move_fits` with the board edge checked exactly: the end state is reachable when
    SOME legal path to it ("a number of movement points corresponding exactly to the speed you
    recorded", p.8) stays on the board, the stored one or one of the entry's alternatives
    (:func:`other_path_fits`; tables built with ``edges=True``). A dragon leaves the board
    only when no such move exists (rule ``lords.board``: "A dragon that leaves the board is
    out of the game"; the campaign rules score "Leaving the board", p.28)."""
    if move_fits(ds, i, e, dalt, mv_h, mv_rq, mv_rr, mv_box, width, depth, alt_levels):
        return True
    h = mv_h[e]
    if dalt > h or -dalt > h:
        return False
    alt = ds[i, F_ALT] + dalt
    if alt < 1 or alt > alt_levels:
        return False
    f = ds[i, F_F]
    q0 = ds[i, F_Q]
    r0 = ds[i, F_R]
    q = q0 + mv_rq[e, f]
    r = r0 + mv_rr[e, f]
    if r < 0 or r >= depth or q + (r - (r & 1)) // 2 < 0 or q + (r - (r & 1)) // 2 >= width:
        return False  # no path ends off the board
    if not hex_free(ds, i, q, r):
        return False
    adal = dalt if dalt >= 0 else -dalt
    return other_path_fits(e, f, q0, r0, adal, width, depth, mv_alt_off, mv_alt)


@game_fn(inline="always")
def move_fits_as(
    exact, ds, i, e, dalt, mv_h, mv_rq, mv_rr, mv_box, mv_alt_off, mv_alt, w, d, levels
):
    """A bot's board-edge check: :func:`move_fits_exact` when ``exact``, else
    :func:`move_fits` (the stored path only: the check of the bots released before it)."""
    if exact:
        return move_fits_exact(
            ds, i, e, dalt, mv_h, mv_rq, mv_rr, mv_box, mv_alt_off, mv_alt, w, d, levels
        )
    return move_fits(ds, i, e, dalt, mv_h, mv_rq, mv_rr, mv_box, w, d, levels)


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


# ---- the ground (advanced rules, p.17) ----------------------------------------------------------


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


# ---- speed, moves, damage, close combat -------------------------------------------------------


@game_fn(inline="always")
def ratings(ds, i, scal):
    """``(breath, claws, MR index)`` of dragon ``i`` from its damage points and its critical
    hits, before clamping: the sheet's steps, less serious damage's (p.12) and the criticals'
    (head shots, broken legs, torn wings, optional rules p.19), which "add up"."""
    num = scal[S_SERIOUS_NUM]
    den = scal[S_SERIOUS_DEN]
    head = 1 if ds[i, F_DP + PART_HEAD] * den < ds[i, F_DP0 + PART_HEAD] * num else 0
    body = 1 if ds[i, F_DP + PART_BODY] * den < ds[i, F_DP0 + PART_BODY] * num else 0
    tail = 1 if ds[i, F_DP + PART_TAIL] * den < ds[i, F_DP0 + PART_TAIL] * num else 0
    b = ds[i, F_BREATH0] - scal[S_BREATH_STEPS_LOST] * head - ds[i, F_CRIT_BREATH]
    c = ds[i, F_CLAW0] - scal[S_CLAW_STEPS_LOST] * body - ds[i, F_LEGS]
    m = ds[i, F_MR0] + scal[S_MR_STEPS_LOST] * tail + ds[i, F_CRIT_MR]
    return b, c, m


@game_fn
def refresh(ds, i, scal, opt):
    """Serious damage effects and removal for dragon ``i`` from its damage points (p.12).

    "As each body part is reduced to less than half of its original damage points": head ->
    breath one step down (minimum Cold), body -> tooth and claw one step down, each wing ->
    maximum speed -2, tail -> maneuverability two steps down (minimum I); "if any of a
    dragon's body part damage tracks is reduced to 0 points, the dragon ... is removed"; with
    ``OPT_CRASH_ZEROED`` only a zeroed head or body kills ("If its head or body are reduced to
    0 damage points, the dragon has been killed", p.17): a zeroed tail or wing crashes it
    (the engine's ``settle``). The critical hits' lasting effects (optional rules, p.19: the
    ``F_CRIT_*`` and ``F_LEGS`` columns, :func:`ratings`) add to these and clamp alike, and a
    critical "Killed!" removes the dragon here, when all have breathed.
    """
    num = scal[S_SERIOUS_NUM]
    den = scal[S_SERIOUS_DEN]
    dead = ds[i, F_CRIT_KILLED] == 1
    for p in range(5):
        if ds[i, F_DP + p] <= 0 and (p <= PART_BODY or opt[OPT_CRASH_ZEROED] == 0):
            dead = True
    lw = 1 if ds[i, F_DP + PART_LEFT_WING] * den < ds[i, F_DP0 + PART_LEFT_WING] * num else 0
    rw = 1 if ds[i, F_DP + PART_RIGHT_WING] * den < ds[i, F_DP0 + PART_RIGHT_WING] * num else 0
    b, c, m = ratings(ds, i, scal)
    ds[i, F_BREATH] = b if b > 0 else 0
    c = c if c > 0 else 0
    if ds[i, F_SPELL_CLAW] != 0:
        c = spell_claws(c, ds[i, F_SPELL_CLAW], 1 - opt[OPT_DULL_TO_BLUNT])
    ds[i, F_CLAW] = c
    ds[i, F_MR] = m if m < 8 else 8
    ds[i, F_MAX] = ds[i, F_MAX0] - scal[S_SPEED_LOST_PER_WING] * (lw + rw)
    if dead:
        ds[i, F_ALIVE] = 0


@game_fn
def critical_effect(ds, t, effect):
    """The effect a Critical Hit Table result ``effect`` (``CE_*``) has on ``t``: "Rider
    thrown! The dragon loses its rider for remainder of game. If the dragon has no rider, a
    leg is broken instead!" (p.19); every other result is itself."""
    if effect == CE_RIDER and ds[t, F_RIDER] == 0:
        return CE_LEG
    return effect


@game_fn
def critical_rerolls(ds, t, effect, scal):
    """Whether the critical ``effect`` (``CE_*``, after :func:`critical_effect`) on ``t`` is
    rerolled: "In the unlikely event of 4 broken legs, reroll. Also, in no case can any
    statistic be reduced below the lowest possible rating for that statistic. If this
    happens, simply reroll" (p.19): a head shot at Cold, a broken leg at the lowest
    tooth-and-claw step or that would be the fourth, a torn wing at MR I. The ratings are
    those the damage ticked off so far and the criticals make (:func:`ratings`)."""
    b, c, m = ratings(ds, t, scal)
    if effect == CE_HEAD:
        return b <= 0
    if effect == CE_LEG:
        return c <= 0 or ds[t, F_LEGS] + 1 >= scal[S_BROKEN_LEGS]
    if effect == CE_WING:
        return m >= 8
    return False


@game_fn
def apply_critical(ds, t, effect):
    """The lasting effect of a critical ``effect`` (``CE_*``, after :func:`critical_effect`)
    on ``t`` (p.19): Killed (removed when all have breathed, :func:`refresh`), a head shot
    (-1 breath step), a broken leg (-1 tooth-and-claw step), Dazed (-2 to its initiative
    rolls), a torn wing (-1 maneuverability step), the rider thrown. The double and triple
    damage is the engine's (it needs the hit's damage)."""
    if effect == CE_KILLED:
        ds[t, F_CRIT_KILLED] = 1
    elif effect == CE_HEAD:
        ds[t, F_CRIT_BREATH] += 1
    elif effect == CE_LEG:
        ds[t, F_LEGS] += 1
    elif effect == CE_DAZED:
        ds[t, F_DAZED] += 1
    elif effect == CE_WING:
        ds[t, F_CRIT_MR] += 1
    elif effect == CE_RIDER:
        ds[t, F_RIDER] = 0
        ds[t, F_RTARGET] = -1


@game_fn
def damage(ds, t, part, amount):
    """Tick ``amount`` points off ``t``'s ``part`` (not below 0); returns the points taken.
    A Force Shield on ``t`` (optional rules, p.24: "absorb 10 points of damage inflicted upon
    the target dragon before it fails. Any additional damage is inflicted as normal") takes
    what it can of ``amount`` first, whatever inflicts it (rule ``lords.advanced.wizard``)."""
    if ds[t, F_SHIELD] > 0 and amount > 0:
        ab = amount if amount < ds[t, F_SHIELD] else ds[t, F_SHIELD]
        ds[t, F_SHIELD] -= ab
        ds[t, F_ABSORBED] += ab
        amount -= ab
    left = ds[t, F_DP + part]
    took = amount if amount < left else left
    if took < 0:
        took = 0
    ds[t, F_DP + part] = left - took
    return took


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


@game_fn
def breath_hit(hit_roll, tn, auto_miss, auto_hit):
    """ "Roll 2d6. If the result is equal to or higher than your final modified target number,
    you hit ... A roll of 2 always misses, and a roll of 12 always hits" (p.10)."""
    if hit_roll <= auto_miss:
        return False
    return hit_roll >= auto_hit or hit_roll >= tn


@game_fn
def cc_modifier(ds, i, cc_by_mr, scal, opt):
    """Dragon ``i``'s close-combat modifier: the Close Combat Ability Table by its current
    maneuverability (p.13; serious tail damage "does affect your close combat modifier",
    p.12) plus its sheet's difference from that table (``F_CC_ADJ``, 0 unless the printed
    sheet values are in force), plus the Lancer's bonus when riders are in play (p.18)."""
    m = cc_by_mr[ds[i, F_MR]] + ds[i, F_CC_ADJ]
    if opt[OPT_RIDERS] == 1 and ds[i, F_RIDER] == 1:
        m += scal[S_LANCER_CC]
    return m


@game_fn
def cc_begin(ds, a, b, scal):
    """ "both dragons automatically drop one altitude level"; "both dragons subtract 2 from their
    current speed ... If subtracting 2 ... would cause it to drop below its minimum speed,
    simply record the dragon's minimum speed" (p.13). On the ground "No altitude or speed
    loss will occur" (p.17)."""
    if ds[a, F_ALT] == 0:
        return
    for i in (a, b):
        ds[i, F_ALT] -= scal[S_CC_ALTITUDE_DROP]
        if ds[i, F_ALT] < 1:
            ds[i, F_ALT] = 1
        s = ds[i, F_SPEED] - scal[S_CC_SPEED_LOSS]
        if s < ds[i, F_MIN]:
            s = ds[i, F_MIN]
        ds[i, F_LAST] = s


@game_fn
def resolve_breath(ds, a, t, side, loc_roll, dmg_roll, tb_alloc, tb_weapon, opt):
    """A breath hit of ``a`` on ``t`` from direction ``side`` (0 F .. 5 FL): "Roll 2d6 and
    cross-reference that number with the direction the attack came from on the Damage
    Allocation Table", then the breath weapon's dice (``dmg_roll`` = their sum) plus its bonus.
    Ticks the points off (a zeroed tail or wing's go to the body, :func:`hit_part`) and
    credits ``a``; returns the part the table gives (p.11)."""
    part = tb_alloc[loc_roll, side]
    dmg = dmg_roll + tb_weapon[ds[a, F_BREATH], 1]
    ds[a, F_DEALT] += damage(ds, t, hit_part(ds, t, part, opt), dmg)
    return part


@game_fn
def cc_winner(ds, a, b, ra, rb, cc_by_mr, scal, opt):
    """ "Both ... roll 2d6 and add the close combat modifiers ... The highest modified result
    wins the combat. If the numbers are tied, the combat is a draw" (-1) (p.13)."""
    sa = ra + cc_modifier(ds, a, cc_by_mr, scal, opt)
    sb = rb + cc_modifier(ds, b, cc_by_mr, scal, opt)
    if sa == sb:
        return -1
    return a if sa > sb else b


@game_fn
def resolve_close_combat(
    ds,
    w,
    l,
    col,
    loc_roll,
    dmg_roll,
    self_roll,
    facing_roll,
    winner_facing,
    tb_alloc,
    tb_weapon,
    scal,
    opt,
    spared=False,
):
    """The rest of a decided close combat: "the winning dragon then rolls 1d6 to determine
    ... which column to use" (``col`` 0..5), 2d6 location, tooth and claw dice (sum
    ``dmg_roll``); the winner takes ``self_roll`` points itself; "The loser now rolls 1d6 and
    consults the direction template. This is the direction (relative to its original facing)
    in which the losing dragon is now facing" (``facing_roll`` 0..5 = template hexside); the
    winner turns to ``winner_facing``. ``spared``: the rider check killed the loser's rider
    instead, and "The dragon takes no damage from the attack" (p.18). Returns the part hit
    (p.13)."""
    part = tb_alloc[loc_roll, col]
    if not spared:
        dmg = dmg_roll + tb_weapon[ds[w, F_CLAW], 1]
        if opt[OPT_RIDERS] == 1 and ds[w, F_RIDER] == 1:
            dmg += scal[S_LANCER_DAMAGE]
        ds[w, F_DEALT] += damage(ds, l, hit_part(ds, l, part, opt), dmg)
    allocate_self_damage(ds, w, self_roll, scal[S_SELF_DAMAGE_POLICY], scal)
    ds[l, F_F] = (ds[l, F_F] - facing_roll) % 6
    ds[w, F_F] = winner_facing
    refresh(ds, w, scal, opt)
    refresh(ds, l, scal, opt)
    return part


# ---- the Wizard's spells (advanced rules, pp. 18, 24-25) ---------------------------------------


@game_fn(inline="always")
def spell_claws(c, delta, floor):
    """Tooth-and-claw step ``c`` after ``delta`` steps of Dull (< 0) and Sharpen (> 0): "No
    sharpness rating may be forced below Dull" (``floor``: the reading lords.dull_floor, 1
    Dull, 0 Blunt; a step already below it stays) and "Teeth and claws may never be sharper
    than Razor Sharp" (p.25)."""
    if delta < 0:
        lo = floor if c >= floor else c
        c = c + delta
        return c if c > lo else lo
    c = c + delta
    return c if c < 4 else 4


@game_fn
def spell_target_number(ds, a, t, spell, tb_base, alt_mod, spells, scal):
    """``(target number, band)`` of ``a``'s Wizard casting ``spell`` at ``t`` (band 0 medium,
    1 long, 2 its own dragon); ``(-1, -1)`` beyond the spell's long range. "To cast a spell,
    the Wizard must roll to hit just like the other riders"; "When the Wizard casts a spell
    on its own dragon, roll to hit the dragon at short (not very short) range, ignoring the
    dragon's wing and body sizes. Thus the Wizard must simply roll a 7 or more" (p.18): on
    ``t == a`` ``S_SELF_TARGET``; else as :func:`rider_target_number` with the spell's
    medium and long ranges (the Wizard's Spellbook, p.25)."""
    if t == a:
        return scal[S_SELF_TARGET], np.int64(2)
    dist = distance(ds[a, F_Q], ds[a, F_R], ds[t, F_Q], ds[t, F_R])
    if dist < 1 or dist > spells[spell, 2]:
        return np.int64(-1), np.int64(-1)
    band = np.int64(0) if dist <= spells[spell, 1] else np.int64(1)
    da = ds[a, F_ALT] - ds[t, F_ALT]
    if da < 0:
        da = -da
    mod = scal[S_RIDER_MEDIUM_MOD] if band == 0 else scal[S_RIDER_LONG_MOD]
    if ds[a, F_ALT] == 0:
        mod += scal[S_RIDER_GROUND_MOD]
    return tb_base + ds[t, F_TOHIT] + alt_mod[da] + mod, band


@game_fn
def may_cast_at(ds, a, t, spell, opt):
    """May ``a``'s Wizard cast ``spell`` at ``t`` (reach aside)? ``t`` in play; "Wizards must
    roll to hit for every target and spell, even to cast a spell on their own dragons or
    allied dragons" (p.18), so its own dragon and its allies may be targets, an enemy as for
    a rider's attack (:func:`may_shoot_at`); Fireball is tossed "at an opponent" (p.24) and
    Lightning Bolt likewise: an enemy only."""
    if t < 0 or t >= ds.shape[0] or ds[t, F_ALIVE] == 0:
        return False
    if spell == SPELL_FIREBALL or spell == SPELL_BOLT:
        return may_shoot_at(ds, a, t, opt)
    if t == a or ds[t, F_TEAM] == ds[a, F_TEAM]:
        return True
    return may_shoot_at(ds, a, t, opt)


@game_fn
def distort_shift(ds, k, j, steps, range_step, step_mod):
    """The change in ``k``'s breath target number at ``j`` when ``k`` perceives the range
    ``steps`` Range Key steps farther (``steps`` < 0: nearer), within Very Short..Very Long
    (Distort Range, p.24)."""
    d = distance(ds[k, F_Q], ds[k, F_R], ds[j, F_Q], ds[j, F_R])
    if d >= range_step.shape[0]:
        d = range_step.shape[0] - 1
    s0 = range_step[d]
    s1 = s0 + steps
    if s1 < 0:
        s1 = 0
    if s1 > 4:
        s1 = 4
    return step_mod[s1] - step_mod[s0]


@game_fn
def heal_part(ds, t, first):
    """The part Heal's next point goes to ("The points may be allocated to one or many body
    parts", p.24; never above its starting points): ``first`` while it is below them, else
    the damaged part with the fewest points left (ties: head, body, tail, wings); -1 when
    none is damaged."""
    if 0 <= first < 5 and ds[t, F_DP + first] < ds[t, F_DP0 + first]:
        return first
    best = -1
    for p in range(5):
        if ds[t, F_DP + p] < ds[t, F_DP0 + p]:
            if best < 0 or ds[t, F_DP + p] < ds[t, F_DP + best]:
                best = p
    return best


@game_fn
def apply_spell_mr(ds, i, scal, opt):
    """Lethargy and Vigor (p.25) for dragon ``i``'s movement phase: its maneuverability
    ``F_SPELL_MR`` steps from its rating now, within A..I ("No rating may be lower than I",
    "No rating may be higher than A"); :func:`refresh` restores it after the phase."""
    b, c, m = ratings(ds, i, scal)
    m = m if m < 8 else 8
    m += ds[i, F_SPELL_MR]
    if m < 0:
        m = 0
    if m > 8:
        m = 8
    ds[i, F_MR] = m


@game_fn
def allocate_self_damage(ds, i, pts, mode, scal):
    """The close-combat winner's own 1d6 ("Roll 1d6 and allocate that many points of damage",
    p.13; the rulebook does not say where, so ``S_SELF_DAMAGE_POLICY`` chooses):
    mode 0 spreads point by point over the parts with most points left, never making a part
    seriously damaged or destroyed when another choice exists; 1 all on the body; 2 all on the
    part with most points left. Returns points taken."""
    num = scal[S_SERIOUS_NUM]
    den = scal[S_SERIOUS_DEN]
    took = 0
    if mode == 1:
        return damage(ds, i, PART_BODY, pts)
    if mode == 2:
        bp = 0
        for p in range(5):
            if ds[i, F_DP + p] > ds[i, F_DP + bp]:
                bp = p
        return damage(ds, i, bp, pts)
    for _ in range(pts):
        best = -1
        bestv = -1
        tier = -1
        for p in range(5):
            left = ds[i, F_DP + p]
            if left <= 0:
                continue
            after = left - 1
            t = 0
            if after > 0:
                t = 1
                d0 = ds[i, F_DP0 + p] * num
                if after * den >= d0 or left * den < d0:
                    t = 2  # stays healthy, or is already seriously damaged
            if t > tier or (t == tier and left > bestv):
                tier = t
                bestv = left
                best = p
        if best < 0:
            break
        took += damage(ds, i, best, 1)
    return took


guard_caches(sys.modules[__name__], [hexes, movetables, state, tables, _random, _kernels])

__all__ = [
    "roll_dice",
    "roll_d6",
    "draw_below",
    "forced_roll",
    "forced_turn",
    "target_number",
    "is_enemy",
    "rider_target_number",
    "may_shoot_at",
    "rider_at_risk",
    "rider_check",
    "move_fits",
    "move_fits_exact",
    "move_fits_as",
    "bank_fits",
    "other_path_fits",
    "can_engage",
    "crashes_by_damage",
    "hit_part",
    "crash_after_combat",
    "takeoff_limits",
    "stuck_on_ground",
    "occupant",
    "hex_free",
    "takeoff_path",
    "may_take_off",
    "landing_hex",
    "ground_fits",
    "refresh",
    "damage",
    "speed_limits",
    "record_speed",
    "apply_move",
    "move_row",
    "breath_hit",
    "cc_modifier",
    "cc_begin",
    "resolve_breath",
    "cc_winner",
    "resolve_close_combat",
    "allocate_self_damage",
    "spell_claws",
    "spell_target_number",
    "may_cast_at",
    "heal_part",
    "distort_shift",
    "apply_spell_mr",
]
