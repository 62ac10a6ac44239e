"""The ground (advanced rules, pp.16-17): a grounded dragon walks (:func:`ground_move`) or
takes off (:func:`take_off`), a flying one may land (:func:`land`), and the three crashes
(Very Low engagement, too slow, zeroed damage points) put a dragon on the ground
(:func:`crash`, :func:`crash_if_zeroed`)."""

from __future__ import annotations

import sys

import numpy as np

from ..._kernels import game_fn
from ..bots import scripted as _scripted
from ..bots.dispatch import (
    choose_ground_move,
    choose_landing,
    choose_move,
)
from ..game.mechanics import (
    apply_move,
    crashes_by_damage,
    damage,
    hit_part,
    landing_hex,
    refresh,
    roll_d6,
    roll_dice,
    stuck_on_ground,
    takeoff_path,
)
from ..game.movetables import BK_CONT
from ..game.state import (
    C_CRASH_N,
    C_CRASH_SQ,
    C_CRASH_SUM,
    C_CRASHES,
    C_DICE,
    C_FALL_CHECKS,
    C_FALL_KILLED,
    C_GROUND_ROLLS,
    C_LANDINGS,
    C_TAKEOFF_POINTS,
    C_TAKEOFFS,
    C_TURN_CARRIED,
    C_TURN_CONTINUED,
    CR_ZEROED,
    F_ALIVE,
    F_ALT,
    F_F,
    F_MIN,
    F_MOVED,
    F_MR,
    F_POLICY,
    F_Q,
    F_R,
    F_RIDER,
    F_RTARGET,
    F_SPEED,
    F_STUCK,
    F_TURNED,
    K_CRASH,
    K_MOVE,
    L_A,
    MK_GROUND,
    MK_LAND,
    MK_TAKE_OFF,
    OPT_CRASH_STUCK_EVERY,
    OPT_CRASH_ZEROED,
)
from ..game.tables import (
    S_BOARD_DEPTH,
    S_BOARD_WIDTH,
    S_CRASH_DICE_PER_LEVEL,
    S_GROUND_MOVE_DICE,
    S_GROUND_MOVE_PLUS,
    S_LANDING_COST,
    S_RIDER_FALL_KILLS,
    S_TAKEOFF_OVER_MIN,
    SIDE_REAR,
)
from .inputs import guard
from .log import log_effects, log_effects_before, log_row
from .movement import fly


@game_fn
def ground_move(ds, i, run, w, cnt, turn, log):
    """ "Moving on the Ground: When it comes time for a dragon on the ground to move, roll
    1d6+3. The dragon can move up to this number of hexes along the ground ... Also, it may
    turn any number of times at no cost and with no restrictions" (advanced rules, p.17); a
    dragon stuck in its hex (a zeroed tail or wing, or any crash under the reading
    ``lords.crash_stuck = every-crash``) "may turn in that hex but it may not move from it"
    (no roll)."""
    scal = run.tb.scalars
    reach = np.int64(0)
    roll = np.int64(0)
    if not stuck_on_ground(ds, i):
        nd6 = scal[S_GROUND_MOVE_DICE]
        roll = roll_dice(w.gst, nd6) + scal[S_GROUND_MOVE_PLUS]
        cnt[C_DICE] += nd6
        reach = roll
        g = roll - scal[S_GROUND_MOVE_PLUS] - nd6
        if 0 <= g < 6:
            cnt[C_GROUND_ROLLS + g] += 1
    q, r, f = choose_ground_move(ds[i, F_POLICY], ds, i, reach, run, w)
    if log is not None:
        lr = log_row(log, ds, turn, K_MOVE, i, -1)
        if lr >= 0:
            log.rows[lr, L_A + 0] = 0
            log.rows[lr, L_A + 1] = ds[i, F_MR]
            log.rows[lr, L_A + 2] = q
            log.rows[lr, L_A + 3] = r
            log.rows[lr, L_A + 4] = f
            log.rows[lr, L_A + 5] = 0
            log.rows[lr, L_A + 6] = MK_GROUND
            log.rows[lr, L_A + 7] = roll
    ds[i, F_Q] = q
    ds[i, F_R] = r
    ds[i, F_F] = f
    ds[i, F_MOVED] = 1


@game_fn
def take_off(ds, i, run, w, cnt, turn, log):
    """ "Taking Off ... the dragon must climb to Very Low altitude and move a number of hexes
    in a straight line equal to its minimum speed. This always costs a number of movement
    points equal to its minimum speed plus 1 ... Once the dragon has made the required move,
    any additional movement points may be spent normally" (p.17): the leap, then a move of
    the points left from Very Low (the bot's, as any move). Returns False when the dragon
    flew off the board (the leap, or no move of the rest stays on it)."""
    tb, mv = run.tb, run.mv
    scal = tb.scalars
    speed = ds[i, F_SPEED]
    cost = ds[i, F_MIN] + scal[S_TAKEOFF_OVER_MIN]
    fits, q, r = takeoff_path(ds, i, scal[S_BOARD_WIDTH], scal[S_BOARD_DEPTH])
    cnt[C_TAKEOFFS] += 1
    cnt[C_TAKEOFF_POINTS] += cost
    q0 = ds[i, F_Q]
    r0 = ds[i, F_R]
    if not fits:
        return fly(
            ds,
            i,
            (np.int64(-1), np.int64(0), speed, np.int64(MK_TAKE_OFF), q0, r0),
            mv,
            w,
            cnt,
            turn,
            log,
        )
    ds[i, F_Q] = q
    ds[i, F_R] = r
    ds[i, F_ALT] = 1
    rest = speed - cost
    e, dalt = choose_move(ds[i, F_POLICY], ds, i, rest, run, w)
    move = (np.int64(e), np.int64(dalt), np.int64(rest), np.int64(MK_TAKE_OFF), q0, r0)
    return fly(ds, i, move, mv, w, cnt, turn, log)


@game_fn
def land(ds, i, run, w, cnt, turn, log):
    """ "Landing ... A dragon may land on the ground from Very Low altitude by moving forward
    1 hex and spending 1 point. This must be the dragon's last point, as its move ends there.
    The dragon's altitude is now Ground" (p.17): the bot's flight of the other points ends
    at Very Low, then the hex ahead. Returns False (and moves nothing) when the bot finds no
    such flight: it then flies its move."""
    tb, mv = run.tb, run.mv
    scal = tb.scalars
    width = scal[S_BOARD_WIDTH]
    depth = scal[S_BOARD_DEPTH]
    speed = ds[i, F_SPEED] - scal[S_LANDING_COST]
    if speed < 0:
        return False
    e, dalt = choose_landing(ds[i, F_POLICY], ds, i, speed, run, w)
    if e < 0:
        return False
    fits, q, r = landing_hex(ds, i, e, dalt, mv.rq, mv.rr, mv.f, width, depth)
    if not fits:
        if w.pst.shape[0] > 1:
            _scripted.script_landing_error(ds, i, ds[i, F_ALT] + dalt, w.pst)
        return False
    f0 = ds[i, F_F]
    f = (f0 + mv.f[e]) % 6
    if log is not None:
        lr = log_row(log, ds, turn, K_MOVE, i, -1)
        if lr >= 0:
            log.rows[lr, L_A + 0] = ds[i, F_SPEED]
            log.rows[lr, L_A + 1] = ds[i, F_MR]
            log.rows[lr, L_A + 2] = q
            log.rows[lr, L_A + 3] = r
            log.rows[lr, L_A + 4] = f
            log.rows[lr, L_A + 5] = 0
            log.rows[lr, L_A + 6] = MK_LAND
            log.rows[lr, L_A + 8] = ds[i, F_Q] + mv.rq[e, f0]  # where the flight ended
            log.rows[lr, L_A + 9] = ds[i, F_R] + mv.rr[e, f0]
            log.rows[lr, L_A + 12] = ds[i, F_TURNED]
    if ds[i, F_TURNED] != 0:
        cnt[C_TURN_CARRIED] += 1
        cnt[C_TURN_CONTINUED] += mv.bk[e, BK_CONT]
    apply_move(ds, i, e, dalt, mv.rq, mv.rr, mv.f, mv.bk)
    ds[i, F_Q] = q
    ds[i, F_R] = r
    ds[i, F_ALT] = 0
    ds[i, F_TURNED] = 0  # its last point was the hex ahead
    cnt[C_LANDINGS] += 1
    return True


@game_fn
def crash(ds, i, cause, run, w, cnt, turn, log, facing_roll, facing):
    """Dragon ``i`` crashes (advanced rules, pp. 17 and 22; ``cause`` ``CR_*``): "leave it in
    the same hex but replace its altitude marker with a Ground counter"; "A crashing dragon
    must roll on the Rear column of the Damage Allocation Table. The body part rolled will
    take 1d6 points of crash damage for each altitude the dragon fell"; "If the dragon has a
    rider, roll 1d6. If the result is a 1, 2 or 3, the rider has been killed in the fall".
    ``facing_roll``: a crashing close-combat winner "must also roll for facing after the
    loser does": the caller rolls the direction template, and the dragon turns to ``facing``
    (with ``facing_roll`` -1 it keeps its facing). Crash damage to a zeroed tail or wing goes
    to the body."""
    opt, tb = run.opt, run.tb
    scal = tb.scalars
    gst = w.gst
    levels = ds[i, F_ALT]
    if log is not None:
        log_effects_before(w.scratch, ds, i)
        r = log_row(log, ds, turn, K_CRASH, i, -1)  # where it fell from
    ds[i, F_ALT] = 0
    ds[i, F_TURNED] = 0  # on the ground (turning between move phases, p.16, is flight's)
    if opt[OPT_CRASH_STUCK_EVERY] == 1:
        # "If the dragon survives the fall, it may turn in that hex but it may not move from
        # it" (p.17), read as said of every crash (lords.crash_stuck = every-crash)
        ds[i, F_STUCK] = 1
    if facing_roll >= 0:
        ds[i, F_F] = facing
    cnt[C_CRASHES + cause] += 1
    lr = roll_dice(gst, 2)
    part = tb.alloc[lr, SIDE_REAR]
    nd6 = levels * scal[S_CRASH_DICE_PER_LEVEL]
    dr_ = roll_dice(gst, nd6)
    cnt[C_DICE] += 2 + nd6
    took = damage(ds, i, hit_part(ds, i, part, opt), dr_)
    if 1 <= levels <= 5:
        cnt[C_CRASH_N + levels - 1] += 1
        cnt[C_CRASH_SUM + levels - 1] += dr_
        cnt[C_CRASH_SQ + levels - 1] += dr_ * dr_
    fall = np.int64(0)
    if ds[i, F_RIDER] > 0:
        fall = roll_d6(gst)
        cnt[C_DICE] += 1
        cnt[C_FALL_CHECKS] += 1
        if fall <= scal[S_RIDER_FALL_KILLS]:
            ds[i, F_RIDER] = 0
            ds[i, F_RTARGET] = -1
            cnt[C_FALL_KILLED] += 1
    refresh(ds, i, scal, opt)
    if log is not None:
        if r >= 0:
            log.rows[r, L_A + 0] = cause
            log.rows[r, L_A + 1] = levels
            log.rows[r, L_A + 2] = lr
            log.rows[r, L_A + 3] = part
            log.rows[r, L_A + 4] = dr_
            log.rows[r, L_A + 5] = took
            log.rows[r, L_A + 6] = fall
            log.rows[r, L_A + 7] = facing_roll
            log.rows[r, L_A + 8] = ds[i, F_F]  # its facing after the fall
        log_effects(log, w.scratch, ds, turn, i)


@game_fn
def crash_if_zeroed(ds, nd, run, w, cnt, turn, log):
    """After damage has taken effect (every breath, every rider's attack): with
    ``OPT_CRASH_ZEROED`` each dragon still flying with a zeroed tail or wing crashes from
    where it is (p.17), in seat order."""
    opt = run.opt
    if opt[OPT_CRASH_ZEROED] == 0:
        return
    for i in range(nd):
        if ds[i, F_ALIVE] == 1 and ds[i, F_ALT] > 0 and crashes_by_damage(ds, i):
            crash(ds, i, CR_ZEROED, run, w, cnt, turn, log, -1, 0)


guard(sys.modules[__name__])
