""" "6. Close Combat" (pp.12-13): each engaged pair fights (:func:`close_combat`,
:func:`fight_pairs`) with the optional tactics (p.22, :func:`use_tactic`); a loser at Very Low
may crash (:func:`crash_after_fight`, advanced rules p.17)."""

from __future__ import annotations

import sys

import numpy as np

from ..._kernels import game_fn
from ..bots.dispatch import (
    choose_facing,
    choose_tactic,
)
from ..game.mechanics import (
    cc_begin,
    cc_modifier,
    cc_winner,
    crash_after_combat,
    crashes_by_damage,
    resolve_close_combat,
    roll_d6,
    roll_dice,
)
from ..game.state import (
    C_BOTH_DEFEND,
    C_CC,
    C_DEFEND_WINS,
    C_DICE,
    C_LUNGE,
    C_LUNGE_FACES,
    C_LUNGE_SUM,
    C_TACTIC_RESETS,
    C_TACTICS,
    CC_DIFF_MAX,
    CC_DIFF_ZERO,
    CR_SLOW,
    CR_VERY_LOW,
    CR_ZEROED,
    F_ALIVE,
    F_ALT,
    F_CC_FACING,
    F_CLAW,
    F_ENG,
    F_ENGAGER,
    F_F,
    F_INIT,
    F_POLICY,
    F_TAC_USED,
    F_TACTIC,
    F_TURNED,
    K_CC,
    L_A,
    N_TACTICS,
    OPT_CRASH_VERY_LOW,
    OPT_CRASH_ZEROED,
    OPT_DEFEND_NO_TURN,
    OPT_TACTICS,
    OPT_TURN_BETWEEN,
    OPT_TURN_CC_FACING,
    RK_CLOSE_COMBAT,
    TAC_DEFEND,
    TAC_LUNGE,
)
from ..game.tables import (
    S_CC_SELF_DAMAGE_DICE,
    S_TACTIC_RESET,
)
from .damage import roll_rider_check
from .ground import crash
from .inputs import guard
from .log import log_effects, log_effects_before, log_row, points_left


@game_fn
def use_tactic(ds, i, t, scal):
    """Check off dragon ``i``'s tactic ``t`` ("check off one of the appropriate boxes on your
    play sheet"); after the 30th check mark all are erased ("you may erase your check marks and
    start over with a fresh set of tactics", p.22). Returns 1 on a reset."""
    ds[i, F_TACTIC] = t
    ds[i, F_TAC_USED + t] += 1
    n = 0
    for k in range(N_TACTICS):
        n += ds[i, F_TAC_USED + k]
    if n >= scal[S_TACTIC_RESET]:
        for k in range(N_TACTICS):
            ds[i, F_TAC_USED + k] = 0
        return 1
    return 0


@game_fn
def close_combat(ds, na, run, w, cnt, turn, log):
    """ "6. Close Combat" (p.13): each engaged pair (once, when the earlier of the two comes up
    in initiative order) drops, slows (:func:`~dragonsim.lords.game.mechanics.cc_begin`), rolls
    2d6 plus modifiers; the winner rolls column, location and tooth-and-claw damage, takes
    its own 1d6, and the loser is turned by the direction template.

    With the optional tactics (``OPT_TACTICS``, p.22) the attacker (the dragon that engaged,
    ``F_ENGAGER``) and the defender first choose a tactic each (neither sees the other's) and
    check it off (:func:`use_tactic`); the Tactics Result Table's entry is added to the
    attacker's score. A Lunge winner rolls 1d6 more damage (after its tooth-and-claw dice); a
    Defend winner inflicts no damage and takes none of its own (no column, location, damage or
    self roll; the facings by the reading ``OPT_DEFEND_NO_TURN``); both Defend: no rolls at all,
    the altitude and speed still drop."""
    opt = run.opt
    if opt[OPT_TURN_BETWEEN] == 1:
        for k in range(na):
            ds[w.order[k], F_CC_FACING] = -1  # set to its facing when it fights
    fight_pairs(ds, na, run, w, cnt, turn, log)
    if opt[OPT_TURN_BETWEEN] == 1:
        # turning between move phases (p.16): the fight ends an engaged dragon's carried
        # turn (reading lords.turn_between_close_combat: "ends"), or only when it changed
        # the dragon's facing ("facing")
        for k in range(na):
            i = w.order[k]
            if ds[i, F_CC_FACING] >= 0 and (
                opt[OPT_TURN_CC_FACING] == 0 or ds[i, F_F] != ds[i, F_CC_FACING]
            ):
                ds[i, F_TURNED] = 0


@game_fn(inline="always")
def fight_pairs(ds, na, run, w, cnt, turn, log):
    """The body of :func:`close_combat`: every engaged pair's fight (:func:`fight_pair`),
    once, when the earlier of the two comes up in initiative order."""
    opt = run.opt
    for k in range(na):
        a = w.order[k]
        b = ds[a, F_ENG]
        if b < 0 or ds[b, F_INIT] < ds[a, F_INIT]:
            continue  # not engaged, or resolved when the earlier dragon came up
        if ds[a, F_ALIVE] == 0 or ds[b, F_ALIVE] == 0:
            continue
        if ds[a, F_ALT] == 1 and opt[OPT_CRASH_VERY_LOW] == 1:
            # "the mandatory loss of altitude will cause the two dragons to crash to the
            # ground before the combat has taken place" (p.17); the fight is then one on the
            # ground
            crash(ds, a, CR_VERY_LOW, run, w, cnt, turn, log, -1, 0)
            crash(ds, b, CR_VERY_LOW, run, w, cnt, turn, log, -1, 0)
            if ds[a, F_ALIVE] == 0 or ds[b, F_ALIVE] == 0:
                continue
        if opt[OPT_TURN_BETWEEN] == 1:
            ds[a, F_CC_FACING] = ds[a, F_F]  # (turning between move phases: they fight)
            ds[b, F_CC_FACING] = ds[b, F_F]
        fight_pair(ds, a, b, run, w, cnt, turn, log)


@game_fn
def choose_tactics(ds, a, b, run, w, cnt):
    """The optional tactics of the pair ``a``, ``b`` (p.22): ``(att, dfn, ta, td, tmod,
    resets)``, the attacker (the dragon that engaged) and defender, their tactics, the
    Tactics Result Table's adjustment to the attacker's score and the tactics reset (bit 0 the
    attacker's, bit 1 the defender's). "both players secretly choose their tactics ... then
    reveal their choices simultaneously": both are asked before either is checked off."""
    tb = run.tb
    scal = tb.scalars
    att = a
    dfn = b
    if ds[a, F_ENGAGER] == b:
        att = b
        dfn = a
    ta = choose_tactic(ds[att, F_POLICY], ds, att, dfn, True, run, w)
    td = choose_tactic(ds[dfn, F_POLICY], ds, dfn, att, False, run, w)
    resets = use_tactic(ds, att, ta, scal) + 2 * use_tactic(ds, dfn, td, scal)
    cnt[C_TACTIC_RESETS] += (resets & 1) + (resets >> 1)
    return att, dfn, ta, td, tb.tactics[ta, td], resets


@game_fn
def log_tactics(log, r, tac):
    """A close combat's log row ``r`` records the tactics ``tac = (att, dfn, ta, td, tmod,
    resets)`` of :func:`choose_tactics`."""
    att, _, ta, td, tmod, resets = tac
    log.rows[r, L_A + 13] = ta + 1
    log.rows[r, L_A + 14] = td + 1
    log.rows[r, L_A + 15] = tmod
    log.rows[r, L_A + 17] = att
    log.rows[r, L_A + 18] = resets


@game_fn
def log_rolls(log, ds, turn, a, b, win, ra, rb, di):
    """The log row of the close combat of ``a`` and ``b``: the winner (-1 none), both 2d6
    and the modifier difference; returns the row (-1 when the log is full)."""
    r = log_row(log, ds, turn, K_CC, a, b)
    if r >= 0:
        log.rows[r, L_A] = win
        log.rows[r, L_A + 1] = ra
        log.rows[r, L_A + 2] = rb
        log.rows[r, L_A + 3] = di - CC_DIFF_ZERO
    return r


@game_fn(inline="always")
def fight_pair(ds, a, b, run, w, cnt, turn, log):
    """One close combat round of ``a`` and ``b`` (p.13, tactics p.22): see
    :func:`close_combat`."""
    opt, tb = run.opt, run.tb
    scal = tb.scalars
    self_dice = scal[S_CC_SELF_DAMAGE_DICE]
    gst = w.gst
    tactics_on = opt[OPT_TACTICS] == 1
    air = ds[a, F_ALT] > 0  # the fight began in the air (crashes come after it)
    tac = (a, b, np.int64(-1), np.int64(-1), np.int64(0), np.int64(0))
    if tactics_on:
        tac = choose_tactics(ds, a, b, run, w, cnt)
    att, _, ta, td, tmod, _ = tac
    pair = C_TACTICS + 3 * (N_TACTICS * ta + td)
    cc_begin(ds, a, b, scal)
    if tactics_on and ta == TAC_DEFEND and td == TAC_DEFEND:
        # "neither dragon can inflict damage, so no combat rolls are necessary. The
        # altitude and speed of the dragons are still affected, however" (p.22)
        cnt[C_BOTH_DEFEND] += 1
        cnt[pair + 1] += 1
        if log is not None:
            r = log_row(log, ds, turn, K_CC, a, b)
            if r >= 0:
                log.rows[r, L_A] = -1
                log_tactics(log, r, tac)
        if air:
            crash_after_fight(ds, a, b, -1, -1, run, w, cnt, turn, log)
        return
    ra = roll_dice(gst, 2)
    rb = roll_dice(gst, 2)
    cnt[C_DICE] += 4
    ma = cc_modifier(ds, a, tb.cc_by_mr, scal, opt)
    mb = cc_modifier(ds, b, tb.cc_by_mr, scal, opt)
    if tactics_on:
        # "the adjustment to the attacker's modified close combat score" (p.22)
        if att == a:
            ma += tmod
        else:
            mb += tmod
        win = np.int64(-1)
        if ra + ma > rb + mb:
            win = a
        elif ra + ma < rb + mb:
            win = b
    else:
        win = cc_winner(ds, a, b, ra, rb, tb.cc_by_mr, scal, opt)
    di = ma - mb + CC_DIFF_ZERO
    if di < 0:
        di = 0
    if di > CC_DIFF_MAX:
        di = CC_DIFF_MAX
    if tactics_on:
        cnt[pair + (1 if win < 0 else (0 if win == att else 2))] += 1
    if win < 0:
        cnt[C_CC + 3 * di + 1] += 1
        if log is not None:
            r = log_rolls(log, ds, turn, a, b, win, ra, rb, di)
            if r >= 0 and tactics_on:
                log_tactics(log, r, tac)
        if air:
            crash_after_fight(ds, a, b, -1, -1, run, w, cnt, turn, log)
        return
    cnt[C_CC + 3 * di + (0 if win == a else 2)] += 1
    lo_ = b if win == a else a
    wt = ta if win == att else td  # the winner's tactic (-1: tactics off)
    wf0 = ds[win, F_F]  # the winner's facing before the fight (a crash rolls from it)
    if wt == TAC_DEFEND:
        # "If a dragon used a Defend tactic and won the combat round, no damage is
        # inflicted on either dragon" (p.22); the facings: the reading lords.defend_win
        cnt[C_DEFEND_WINS] += 1
        fr = np.int64(-1)
        wf = wf0
        if opt[OPT_DEFEND_NO_TURN] == 0:
            fr = roll_d6(gst) - 1
            cnt[C_DICE] += 1
            wf = choose_facing(ds[win, F_POLICY], ds, win, lo_, w.pst) % 6
            ds[lo_, F_F] = (ds[lo_, F_F] - fr) % 6
            ds[win, F_F] = wf
        if log is not None:
            r = log_rolls(log, ds, turn, a, b, win, ra, rb, di)
            if r >= 0:
                log.rows[r, L_A + 4] = -1
                log.rows[r, L_A + 10] = fr
                log.rows[r, L_A + 11] = wf
                log_tactics(log, r, tac)
        if air:
            crash_after_fight(ds, lo_, win, win, wf0, run, w, cnt, turn, log)
        return
    col = roll_d6(gst) - 1
    lr = roll_dice(gst, 2)
    rc, spared = roll_rider_check(ds, lo_, tb.alloc[lr, col], RK_CLOSE_COMBAT, opt, scal, gst, cnt)
    nd6 = 0 if spared else tb.weapon[ds[win, F_CLAW], 0]
    dr_ = roll_dice(gst, nd6)
    lunge = np.int64(0)
    if wt == TAC_LUNGE and not spared:
        # "If a dragon used a Lunge tactic and won the combat round, it inflicts an
        # additional +1d6 points of damage" (p.22)
        lunge = roll_d6(gst)
        cnt[C_DICE] += 1
        cnt[C_LUNGE] += 1
        cnt[C_LUNGE_SUM] += lunge
        if 1 <= lunge <= 6:
            cnt[C_LUNGE_FACES + lunge - 1] += 1
    sd = roll_dice(gst, self_dice)
    fr = roll_d6(gst) - 1
    cnt[C_DICE] += 1 + 2 + nd6 + self_dice + 1
    wf = choose_facing(ds[win, F_POLICY], ds, win, lo_, w.pst) % 6
    if log is not None:
        lost_l = points_left(ds, lo_)
        lost_w = points_left(ds, win)
        log_effects_before(w.scratch, ds, win)
        log_effects_before(w.scratch, ds, lo_)
    rolls = (col, lr, dr_ + lunge, sd, fr, wf)
    resolve_close_combat(ds, win, lo_, rolls, tb, opt, spared)
    if log is not None:
        r = log_rolls(log, ds, turn, a, b, win, ra, rb, di)
        if r >= 0:
            log.rows[r, L_A + 4] = col
            log.rows[r, L_A + 5] = lr
            log.rows[r, L_A + 6] = dr_
            log.rows[r, L_A + 7] = lost_l - points_left(ds, lo_)
            log.rows[r, L_A + 8] = sd
            log.rows[r, L_A + 9] = lost_w - points_left(ds, win)
            log.rows[r, L_A + 10] = fr
            log.rows[r, L_A + 11] = wf
            log.rows[r, L_A + 12] = rc
            if tactics_on:
                log.rows[r, L_A + 16] = lunge
                log_tactics(log, r, tac)
        log_effects(log, w.scratch, ds, turn, win)
        log_effects(log, w.scratch, ds, turn, lo_)
    if air:
        crash_after_fight(ds, lo_, win, win, wf0, run, w, cnt, turn, log)


@game_fn
def crash_after_fight(ds, a, b, win, wf0, run, w, cnt, turn, log):
    """The crashes after a close combat in the air (p.17), ``a`` then ``b`` (the loser first):
    a dragon whose speed less 2 falls below its minimum (``OPT_CRASH_SLOW``) or with a zeroed
    tail or wing (``OPT_CRASH_ZEROED``) falls from the altitude of the fight. "If the winner
    crashes, it must also roll for facing after the loser does. It doesn't get to choose its
    facing" (p.22): the winner ``win`` (-1: a draw) rolls the direction template from its
    facing before the fight ``wf0``."""
    opt, tb = run.opt, run.tb
    scal = tb.scalars
    for i in (a, b):
        if ds[i, F_ALIVE] == 0 or ds[i, F_ALT] == 0:
            continue
        cause = np.int64(-1)
        if crash_after_combat(ds, i, opt, scal):
            cause = CR_SLOW
        elif opt[OPT_CRASH_ZEROED] == 1 and crashes_by_damage(ds, i):
            cause = CR_ZEROED
        if cause < 0:
            continue
        fr = np.int64(-1)
        if i == win:
            fr = roll_d6(w.gst) - 1
            cnt[C_DICE] += 1
        crash(ds, i, cause, run, w, cnt, turn, log, fr, (wf0 - fr) % 6)


guard(sys.modules[__name__])
