""" "2. Record Speed" (p.7): every dragon records its speed before anyone moves, within the
limits its wings and the acceleration rule in force allow; the Wizard's Quicken and Slow
(p.25) are counted here."""

from __future__ import annotations

import sys

from ..._kernels import game_fn
from ..bots.dispatch import (
    choose_ground_speed,
    choose_speed,
)
from ..game.mechanics import (
    record_speed,
    speed_limits,
    takeoff_limits,
)
from ..game.state import (
    C_GROUND_TURNS,
    C_SPEED_GAIN,
    C_SPELL_FX,
    C_SPELL_FX_SQ,
    F_ALT,
    F_COOL,
    F_DP,
    F_DP0,
    F_LAST,
    F_MAX,
    F_MIN,
    F_POLICY,
    F_QUICKEN,
    F_SLOW,
    F_STREAK,
    K_SPEED,
    L_A,
    PART_LEFT_WING,
    PART_RIGHT_WING,
    PART_TAIL,
    SPELL_QUICKEN,
    SPELL_SLOW,
)
from ..game.tables import (
    S_ACCEL,
    S_BOARD_DEPTH,
    S_BOARD_WIDTH,
)
from .inputs import guard
from .log import log_row


@game_fn
def record_speeds(ds, na, run, w, cnt, turn, log):
    """ "2. Record Speed" (p.7), secretly: every dragon chooses within its limits
    (:func:`~dragonsim.lords.game.mechanics.speed_limits`) before anyone moves."""
    opt, tb = run.opt, run.tb
    scal = tb.scalars
    for k in range(na):
        i = w.order[k]
        ground = ds[i, F_ALT] == 0
        if ground:
            # "If a dragon ended its turn on the ground last turn and it wants to remain on the
            # ground this turn, the player must note ground"; "A dragon taking off this turn
            # must record a speed of no less than its minimum speed plus 1 and no greater
            # than 7" (advanced rules, p.15): 0 is "ground"
            cnt[C_GROUND_TURNS] += 1
            lo, hi = takeoff_limits(ds, i, scal, opt)
            s = choose_ground_speed(
                ds[i, F_POLICY], ds, i, lo, hi, scal[S_BOARD_WIDTH], scal[S_BOARD_DEPTH], w.pst
            )
        else:
            lo, hi = speed_limits(ds, i, scal, tb.accel_wings, opt)
            if ds[i, F_QUICKEN] + ds[i, F_SLOW] > 0:
                count_speed_spells(ds, i, hi, run, cnt)
            s = choose_speed(ds[i, F_POLICY], ds, i, lo, hi, run.plan, w.pst)
            if ds[i, F_LAST] >= 0 and s - ds[i, F_LAST] > scal[S_ACCEL]:
                cnt[C_SPEED_GAIN] += 1
        if log is not None:
            r = log_row(log, ds, turn, K_SPEED, i, -1)
            if r >= 0:
                log.rows[r, L_A + 0] = s
                log.rows[r, L_A + 1] = ds[i, F_LAST]
                log.rows[r, L_A + 2] = ds[i, F_STREAK]
                log.rows[r, L_A + 3] = ds[i, F_COOL]
                log.rows[r, L_A + 4] = ds[i, F_MIN]
                log.rows[r, L_A + 5] = ds[i, F_MAX]
                log.rows[r, L_A + 6] = ds[i, F_DP + PART_LEFT_WING]
                log.rows[r, L_A + 7] = ds[i, F_DP + PART_RIGHT_WING]
                log.rows[r, L_A + 8] = ds[i, F_DP0 + PART_LEFT_WING]
                log.rows[r, L_A + 9] = ds[i, F_DP0 + PART_RIGHT_WING]
                log.rows[r, L_A + 10] = lo  # the speeds it may record this turn
                log.rows[r, L_A + 11] = hi
                log.rows[r, L_A + 12] = 1 if ground else 0  # 0 ("ground") allowed too
                log.rows[r, L_A + 13] = ds[i, F_DP + PART_TAIL]
        record_speed(ds, i, s, scal)


@game_fn
def count_speed_spells(ds, i, hi, run, cnt):
    """Quicken's and Slow's effect sizes (p.25) on dragon ``i``'s limits this record-speed
    phase: how far ``hi`` stands above / below the highest speed without them."""
    opt, tb = run.opt, run.tb
    q = ds[i, F_QUICKEN]
    sl = ds[i, F_SLOW]
    ds[i, F_QUICKEN] = 0
    ds[i, F_SLOW] = 0
    lo0, hi0 = speed_limits(ds, i, tb.scalars, tb.accel_wings, opt)
    ds[i, F_QUICKEN] = q
    ds[i, F_SLOW] = sl
    d = hi - hi0
    if q > 0 and d > 0:
        cnt[C_SPELL_FX + SPELL_QUICKEN] += d
        cnt[C_SPELL_FX_SQ + SPELL_QUICKEN] += d * d
    if sl > 0 and d < 0:
        cnt[C_SPELL_FX + SPELL_SLOW] -= d
        cnt[C_SPELL_FX_SQ + SPELL_SLOW] += d * d


guard(sys.modules[__name__])
