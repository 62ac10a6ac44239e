""" "4. Record Breath Targets" and "5. Breath Combat" (pp.8-12): every dragon records its
target before anyone breathes (:func:`record_targets`); the attacks resolve, serious damage is
applied when all have breathed (:func:`breath_combat`), with the optional critical hits,
fumbles and multiple hits (p.20: :func:`critical`, :func:`fumble`)."""

from __future__ import annotations

import sys

import numpy as np

from ..._kernels import game_fn
from ..bots.dispatch import (
    choose_side,
    choose_target,
)
from ..game.hexes import direction_template
from ..game.mechanics import (
    apply_critical,
    breath_hit,
    critical_effect,
    critical_rerolls,
    damage,
    distort_shift,
    hit_part,
    refresh,
    resolve_breath,
    rider_at_risk,
    roll_dice,
    standing,
    target_number,
)
from ..game.state import (
    C_BREATH_HITS,
    C_BREATHS,
    C_CRIT_CHANCES,
    C_CRIT_REROLLS,
    C_CRITS,
    C_DICE,
    C_FUMBLE_CHANCES,
    C_FUMBLE_RIDER,
    C_FUMBLE_RIDER_KILLED,
    C_FUMBLES,
    C_HIT_LIMIT,
    C_LOC,
    C_SPELL_FX,
    C_SPELL_FX_SQ,
    C_TN_HITS,
    C_TN_TRIES,
    CE_DOUBLE,
    CE_NONE,
    CE_TRIPLE,
    F_ALIVE,
    F_BREATH,
    F_DEALT,
    F_DISTORT,
    F_DP,
    F_F,
    F_HIT_BY,
    F_HITS,
    F_POLICY,
    F_Q,
    F_R,
    F_RIDER,
    F_TARGET,
    K_BREATH,
    K_TARGET,
    L_A,
    N_PARTS,
    N_TN,
    OPT_CRIT_IN_PLACE,
    OPT_CRITICALS,
    OPT_FUMBLE_RIDER_ONLY,
    OPT_FUMBLES,
    OPT_HIT_LIMIT,
    OPT_HIT_LIMIT_LOW_FIRST,
    OPT_RANGE_MOD,
    PART_BODY,
    RK_BREATH,
    SPELL_DISTORT,
)
from ..game.tables import (
    S_AUTO_HIT,
    S_AUTO_MISS,
    S_CRIT_MAX_TARGET,
    S_HIT_LIMIT,
)
from .damage import roll_rider_check
from .ground import crash_if_zeroed
from .inputs import guard
from .log import log_effects, log_effects_before, log_geometry, log_row, points_left


@game_fn
def record_targets(ds, na, run, w, turn, log):
    """ "4. Record Breath Targets" (p.10): every dragon in play records its target (or none)
    before anyone breathes."""
    for k in range(na):
        i = w.order[k]
        if ds[i, F_ALIVE] == 1:
            t = choose_target(ds[i, F_POLICY], ds, i, run, w)
            ds[i, F_TARGET] = t
            if log is not None:
                if t >= 0:
                    log_row(log, ds, turn, K_TARGET, i, t)


@game_fn
def fumble(ds, a, run, gst, cnt):
    """ "If you roll an unmodified 2 when rolling to hit with a breath weapon, your dragon has
    breathed on itself! If you have a rider, check for rider damage. Otherwise roll on the
    Fumble Table to determine how much damage the dragon did to itself and where" (optional
    rules, p.20): with a rider and the rider deaths rule, the rider check's 2d6 first
    (:func:`roll_rider_check`, a 7 kills the rider and the dragon takes no damage); then,
    unless it killed the rider (or, with the reading ``lords.fumble_rider`` = rider-only, a
    rider was checked at all), the Fumble Table's 2d6 and its d6 of damage on ``a`` itself.
    Returns ``(rider check, table roll, damage roll, points lost)`` (0: not rolled)."""
    opt, tb = run.opt, run.tb
    scal = tb.scalars
    table = True
    rc = np.int64(0)
    if ds[a, F_RIDER] > 0 and rider_at_risk(ds, a, PART_BODY, opt):
        rc, spared = roll_rider_check(ds, a, PART_BODY, RK_BREATH, opt, scal, gst, cnt)
        cnt[C_FUMBLE_RIDER] += 1
        if spared:
            cnt[C_FUMBLE_RIDER_KILLED] += 1
        table = not spared and opt[OPT_FUMBLE_RIDER_ONLY] == 0
    if not table:
        return rc, np.int64(0), np.int64(0), np.int64(0)
    fr = roll_dice(gst, 2)
    cnt[C_DICE] += 2
    if fr >= 2:  # (a script that ran out of dice reads 0)
        cnt[C_FUMBLES + fr - 2] += 1
    nd6 = tb.fumble[fr, 0]
    dr_ = roll_dice(gst, nd6)
    cnt[C_DICE] += nd6
    took = damage(ds, a, hit_part(ds, a, tb.fumble[fr, 1], opt), dr_)
    return rc, fr, dr_, took


@game_fn
def critical(ds, a, t, dmg, part, dp_before, dealt_before, run, gst, cnt):
    """A critical hit of ``a`` on ``t`` (optional rules, p.19): "Roll on the Critical Hit
    Table to determine exactly what has happened to the target and what additional damage it
    has sustained", after the hit's own damage (``dmg`` points, on the table's ``part``; the
    target's damage points and ``a``'s damage dealt before it in ``dp_before``,
    ``dealt_before``). A result that would lower a statistic below its lowest rating, or
    break a fourth leg, is rerolled (:func:`~dragonsim.lords.game.mechanics.critical_rerolls`).
    Double and triple damage to the body: with the reading ``lords.critical_body_damage`` =
    additional (default) the hit's damage once / twice more on the body; with in-place the
    hit's damage x2 / x3 on the body in place of the hit (its damage is undone). Returns
    ``(table roll, rerolls, effect CE_*, points the body lost to it)``."""
    opt, tb = run.opt, run.tb
    scal = tb.scalars
    rerolls = np.int64(0)
    cr = np.int64(0)
    eff = CE_NONE
    for _ in range(100):  # a reroll is never forced forever: Killed never rerolls
        cr = roll_dice(gst, 2)
        cnt[C_DICE] += 2
        eff = critical_effect(ds, t, tb.critical[cr])
        if not critical_rerolls(ds, t, eff, scal):
            break
        rerolls += 1
    if cr >= 2:  # (a script that ran out of dice reads 0)
        cnt[C_CRITS + cr - 2] += 1
    cnt[C_CRIT_REROLLS] += rerolls
    took = np.int64(0)
    if eff == CE_DOUBLE or eff == CE_TRIPLE:
        mult = 2 if eff == CE_DOUBLE else 3
        if opt[OPT_CRIT_IN_PLACE] == 1:
            for p in range(N_PARTS):
                ds[t, F_DP + p] = dp_before[p]
            ds[a, F_DEALT] = dealt_before
            took = damage(ds, t, PART_BODY, dmg * mult)
        else:
            took = damage(ds, t, PART_BODY, dmg * (mult - 1))
        ds[a, F_DEALT] += took
    else:
        apply_critical(ds, t, eff)
    return cr, rerolls, eff, took


@game_fn(inline="always")
def breathe(ds, a, t, run, w, cnt, turn, log):
    """Dragon ``a``'s breath attack on its recorded target ``t`` (see :func:`breath_combat`):
    the three-hit limit, the target number, the 2d6, a fumble on a miss, the location, the
    rider check, the damage and a critical hit."""
    opt, tb, range_mod = run.opt, run.tb, run.range_mod
    scal = tb.scalars
    auto_miss = scal[S_AUTO_MISS]
    auto_hit = scal[S_AUTO_HIT]
    gst = w.gst
    crits = opt[OPT_CRITICALS] == 1
    fumbles = opt[OPT_FUMBLES] == 1
    limit = opt[OPT_HIT_LIMIT] == 1
    dp_before = w.scratch[:N_PARTS]  # a critical's in-place damage restores the hit's
    if limit and ds[t, F_HIT_BY] >= scal[S_HIT_LIMIT]:
        # "any other players that recorded that dragon as a target may not breathe on
        # it, nor may they switch targets" (p.20)
        cnt[C_HIT_LIMIT] += 1
        if log is not None:
            r = log_row(log, ds, turn, K_BREATH, a, t)
            if r >= 0:
                log.rows[r, L_A] = -2
                log.rows[r, L_A + 3] = -1
                log_geometry(log, r, ds, a, t, tb.arc)
        return
    tn = target_number(ds, a, t, standing(ds, a), tb, range_mod)
    if tn < 0:
        if log is not None:
            r = log_row(log, ds, turn, K_BREATH, a, t)
            if r >= 0:
                log.rows[r, L_A] = -1  # wasted: the target can no longer be breathed at
                log_geometry(log, r, ds, a, t, tb.arc)
        return  # a recorded target that cannot be breathed at: the breath is wasted
    if ds[a, F_DISTORT] != 0 and opt[OPT_RANGE_MOD] == 1:
        # Distort Range (p.24): "The affected dragon's to-hit roll is altered according
        # to its new perception of reality"
        sh = distort_shift(ds, a, t, ds[a, F_DISTORT], tb.range_step, tb.step_mod)
        tn += sh
        cnt[C_SPELL_FX + SPELL_DISTORT] += sh
        cnt[C_SPELL_FX_SQ + SPELL_DISTORT] += sh * sh
    hr = roll_dice(gst, 2)
    cnt[C_DICE] += 2
    cnt[C_BREATHS] += 1
    ti = tn if tn < N_TN else N_TN - 1
    cnt[C_TN_TRIES + ti] += 1
    can_crit = crits and tn <= scal[S_CRIT_MAX_TARGET]
    if can_crit:
        cnt[C_CRIT_CHANCES] += 1
    if fumbles:
        cnt[C_FUMBLE_CHANCES] += 1
    if not breath_hit(hr, tn, auto_miss, auto_hit):
        frc = np.int64(0)
        fr = np.int64(0)
        fdr = np.int64(0)
        flost = np.int64(0)
        if fumbles and hr == auto_miss:
            frc, fr, fdr, flost = fumble(ds, a, run, gst, cnt)
        if log is not None:
            r = log_row(log, ds, turn, K_BREATH, a, t)
            if r >= 0:
                log.rows[r, L_A + 0] = tn
                log.rows[r, L_A + 1] = hr
                log.rows[r, L_A + 2] = 0
                log.rows[r, L_A + 3] = -1
                log.rows[r, L_A + 16] = frc
                log.rows[r, L_A + 17] = fr
                log.rows[r, L_A + 18] = fdr
                log.rows[r, L_A + 19] = flost
                log_geometry(log, r, ds, a, t, tb.arc)
        return
    cnt[C_TN_HITS + ti] += 1
    cnt[C_BREATH_HITS] += 1
    ds[a, F_HITS] += 1
    s1, s2 = direction_template(ds[a, F_Q], ds[a, F_R], ds[t, F_Q], ds[t, F_R], ds[t, F_F])
    side = s1
    if s2 >= 0:
        side = choose_side(ds[a, F_POLICY], ds, a, t, s1, s2, tb.alloc, w.pst)
    lr = roll_dice(gst, 2)
    cnt[C_DICE] += 2
    rc, spared = roll_rider_check(ds, t, tb.alloc[lr, side], RK_BREATH, opt, scal, gst, cnt)
    nd6 = tb.weapon[ds[a, F_BREATH], 0]
    if spared:
        nd6 = 0  # "The dragon takes no damage from the attack" (p.18)
    dr_ = roll_dice(gst, nd6)
    cnt[C_DICE] += nd6
    is_crit = can_crit and hr == auto_hit
    lost = np.int64(0)
    if log is not None:
        r = log_row(log, ds, turn, K_BREATH, a, t)  # the target's track before
    if log is not None or limit:
        lost = points_left(ds, t)
    dealt_before = np.int64(0)
    if is_crit:
        for p in range(N_PARTS):
            dp_before[p] = ds[t, F_DP + p]
        dealt_before = ds[a, F_DEALT]
    if spared:
        part = tb.alloc[lr, side]
    else:
        part = resolve_breath(ds, a, t, side, lr, dr_, tb.alloc, tb.weapon, opt)
    cnt[C_LOC + 5 * side + part] += 1
    cr = np.int64(0)
    crr = np.int64(0)
    ce = CE_NONE
    ctook = np.int64(0)
    if is_crit:
        dmg = 0 if spared else dr_ + tb.weapon[ds[a, F_BREATH], 1]
        cr, crr, ce, ctook = critical(ds, a, t, dmg, part, dp_before, dealt_before, run, gst, cnt)
    if limit:
        if lost - points_left(ds, t) > 0:
            ds[t, F_HIT_BY] += 1  # "only those attacks that do damage" (p.20)
    if log is not None:
        if r >= 0:
            log.rows[r, L_A + 0] = tn
            log.rows[r, L_A + 1] = hr
            log.rows[r, L_A + 2] = 1
            log.rows[r, L_A + 3] = side
            log.rows[r, L_A + 4] = lr
            log.rows[r, L_A + 5] = part
            log.rows[r, L_A + 6] = dr_
            log.rows[r, L_A + 7] = lost - points_left(ds, t)
            log.rows[r, L_A + 8] = nd6
            log.rows[r, L_A + 11] = rc
            log.rows[r, L_A + 12] = cr
            log.rows[r, L_A + 13] = crr
            log.rows[r, L_A + 14] = ce
            log.rows[r, L_A + 15] = ctook
            log_geometry(log, r, ds, a, t, tb.arc)


@game_fn
def breath_combat(ds, nd, na, run, w, cnt, turn, log):
    """ "5. Breath Combat" (pp. 10-12), simultaneous: damage points are ticked off as each
    attack is rolled (in initiative order, like the Example of Play), but serious damage
    effects and removals wait until every dragon has breathed, so a wounded dragon "still gets
    to make its own attack" at full strength. A recorded target that can no longer be breathed
    at wastes the breath. With the rider deaths rule (``OPT_RIDER_DEATHS``) a body hit on a
    dragon with a rider rolls the rider check first (p.18,
    :func:`~dragonsim.lords.game.mechanics.rider_check`).

    The optional rules (pp. 19-20): an unmodified 12 at a target number of 11 or less is a
    critical hit (``OPT_CRITICALS``, :func:`critical`, its table rolled after the hit's
    damage), an unmodified 2 a fumble (``OPT_FUMBLES``, :func:`fumble`), and with the
    three-hit limit (``OPT_HIT_LIMIT``) a dragon that has suffered damage from three breath
    attacks this turn cannot be breathed on again: its later attackers do not breathe."""
    opt, tb = run.opt, run.tb
    scal = tb.scalars
    limit = opt[OPT_HIT_LIMIT] == 1
    # "resolve all attacks in order of initiative" (p.20): highest first, or lowest first under
    # the reading lords.hit_limit_order = low-first; without the limit, lowest first
    high_first = limit and opt[OPT_HIT_LIMIT_LOW_FIRST] == 0
    if limit:
        for i in range(nd):
            ds[i, F_HIT_BY] = 0
    for kk in range(na):
        k = na - 1 - kk if high_first else kk
        a = w.order[k]
        t = ds[a, F_TARGET]
        if t < 0 or ds[a, F_ALIVE] == 0:
            continue
        breathe(ds, a, t, run, w, cnt, turn, log)
    for i in range(nd):
        if log is not None:
            log_effects_before(w.scratch, ds, i)
        refresh(ds, i, scal, opt)
        if log is not None:
            log_effects(log, w.scratch, ds, turn, i)
    crash_if_zeroed(ds, nd, run, w, cnt, turn, log)


guard(sys.modules[__name__])
