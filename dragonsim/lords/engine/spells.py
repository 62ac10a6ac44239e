"""The Wizard's spells (pp.23-25): recorded with the riders' actions
(:func:`record_spells`), cast (:func:`cast_spell`: magic points, the spell's target number,
its effect) and expired at the end of the turn (:func:`expire_spells`)."""

from __future__ import annotations

import sys

import numpy as np

from ..._kernels import game_fn
from ..bots.dispatch import (
    choose_spell,
)
from ..game.hexes import distance
from ..game.mechanics import (
    breath_hit,
    damage,
    heal_part,
    hit_part,
    may_cast_at,
    refresh,
    roll_dice,
    spell_target_number,
)
from ..game.state import (
    C_DICE,
    C_SPELL_D6,
    C_SPELL_FX,
    C_SPELL_FX_SQ,
    C_SPELL_HITS,
    C_SPELL_LOST,
    C_SPELL_POINTS,
    C_SPELL_SELF,
    C_SPELL_SELF_HITS,
    C_SPELL_TN_HITS,
    C_SPELL_TN_TRIES,
    C_SPELLS,
    F_ALIVE,
    F_CLAW,
    F_DEALT,
    F_DISTORT,
    F_DP,
    F_F,
    F_HEALED,
    F_MAGIC,
    F_MR,
    F_Q,
    F_QUICKEN,
    F_R,
    F_RIDER,
    F_SARG,
    F_SHIELD,
    F_SLOW,
    F_SORE,
    F_SPELL,
    F_SPELL_CLAW,
    F_SPELL_MR,
    F_SPENT,
    F_STARGET,
    K_SPELL,
    K_SPELL_REC,
    L_A,
    N_TN,
    OPT_RIDER_AT_ONCE,
    RIDER_WIZARD,
    SPELL_BOLT,
    SPELL_DISTORT,
    SPELL_DULL,
    SPELL_FIREBALL,
    SPELL_HEAL,
    SPELL_LETHARGY,
    SPELL_QUICKEN,
    SPELL_SADDLESORE,
    SPELL_SHARPEN,
    SPELL_SHIELD,
    SPELL_SLOW,
    SPELL_SPIN,
    SPELL_VIGOR,
)
from ..game.tables import (
    S_AUTO_HIT,
    S_AUTO_MISS,
    S_BASE_TO_HIT,
    SX_BOLT_DICE,
    SX_BOLT_PLUS,
    SX_CLAW_STEPS,
    SX_FIREBALL_DICE,
    SX_FIREBALL_PLUS,
    SX_HEAL_DICE,
    SX_HEAL_PLUS,
    SX_MR_STEPS,
    SX_SHIELD,
)
from .damage import count_absorbed, roll_rider_hit
from .ground import crash_if_zeroed
from .inputs import guard
from .log import log_effects, log_effects_before, log_row


@game_fn
def record_spells(ds, na, run, w, turn, log):
    """The Wizards record their spells (p.15), each its spell, target and argument
    (:func:`~dragonsim.lords.bots.dispatch.choose_spell`), before any rider acts: "A Wizard
    can only try to cast one spell each turn" (p.18)."""
    opt, tb, range_mod = run.opt, run.tb, run.range_mod
    for k in range(na):
        i = w.order[k]
        ds[i, F_SPELL] = -1
        ds[i, F_STARGET] = -1
        ds[i, F_SARG] = 0
        if ds[i, F_ALIVE] == 0:
            continue
        sp, t, arg = choose_spell(ds, i, tb, range_mod, opt, run.plan, w.pst)
        if sp < 0:
            continue
        ds[i, F_SPELL] = sp
        ds[i, F_STARGET] = t
        ds[i, F_SARG] = arg
        if log is not None:
            r = log_row(log, ds, turn, K_SPELL_REC, i, t)
            if r >= 0:
                log.rows[r, L_A + 0] = sp
                log.rows[r, L_A + 1] = arg
                log.rows[r, L_A + 2] = ds[i, F_MAGIC]


@game_fn
def expire_spells(ds, nd, run, cnt):
    """ "Once cast, each spell lasts until the beginning of the next rider actions phase"
    (p.24): at the beginning of the phase every Force Shield fails (what it absorbed is
    counted), Dull and Sharpen, Distort Range, Lethargy and Vigor, Quicken and Slow end.
    Saddlesore lasts until it has taken its rider action."""
    opt, tb = run.opt, run.tb
    scal = tb.scalars
    for i in range(nd):
        count_absorbed(ds, i, cnt)
        ds[i, F_SHIELD] = 0
        ds[i, F_DISTORT] = 0
        ds[i, F_SPELL_MR] = 0
        ds[i, F_QUICKEN] = 0
        ds[i, F_SLOW] = 0
        if ds[i, F_SPELL_CLAW] != 0:
            ds[i, F_SPELL_CLAW] = 0
            if ds[i, F_ALIVE] == 1:
                refresh(ds, i, scal, opt)


@game_fn
def cast_spell(ds, nd, a, run, w, cnt, turn, log):
    """``a``'s Wizard casts its recorded spell (advanced rules, pp. 18, 24-25). "When a Wizard
    casts a spell, immediately deduct the cost of the spell"; the 2d6 against the spell's
    target number (:func:`~dragonsim.lords.game.mechanics.spell_target_number`, rolled as a
    breath: a 2 always misses, a 12 always hits); "If a Wizard misses a target when rolling
    to hit, the spell fails and the points are lost"; on a hit the spell's effect (see rule
    ``lords.advanced.wizard``). Fireball and Lightning Bolt "Resolve damage as for a breath
    attack": the direction template from the caster, the 2d6 location and the rider check
    of a body hit, then the damage. A spell whose target left play, or whose Wizard was
    killed, before its turn is not cast."""
    opt, tb = run.opt, run.tb
    scal = tb.scalars
    fx = tb.spell_fx
    gst = w.gst
    sp = ds[a, F_SPELL]
    t = ds[a, F_STARGET]
    arg = ds[a, F_SARG]
    ds[a, F_SPELL] = -1
    tn = np.int64(-1)
    band = np.int64(-1)
    if ds[a, F_RIDER] == RIDER_WIZARD and may_cast_at(ds, a, t, sp, opt):
        tn, band = spell_target_number(
            ds, a, t, sp, scal[S_BASE_TO_HIT], tb.alt_mod, tb.spells, scal
        )
    cost = tb.spells[sp, 0]
    if tn < 0 or cost > ds[a, F_MAGIC]:
        cnt[C_SPELL_LOST] += 1
        if log is not None:
            r = log_row(log, ds, turn, K_SPELL, a, t)
            if r >= 0:
                log.rows[r, L_A] = -1
                log.rows[r, L_A + 4] = sp
        return
    ds[a, F_MAGIC] -= cost
    ds[a, F_SPENT] += cost
    cnt[C_SPELL_POINTS] += cost
    hr = roll_dice(gst, 2)
    cnt[C_DICE] += 2
    cnt[C_SPELLS + sp] += 1
    ti = tn if tn < N_TN else N_TN - 1
    cnt[C_SPELL_TN_TRIES + ti] += 1
    if band == 2:
        cnt[C_SPELL_SELF] += 1
    hit = breath_hit(hr, tn, scal[S_AUTO_MISS], scal[S_AUTO_HIT])
    r = np.int64(-1)
    if log is not None:
        r = log_row(log, ds, turn, K_SPELL, a, t)  # the target's track before
        if r >= 0:
            log.rows[r, L_A + 0] = sp
            log.rows[r, L_A + 1] = tn
            log.rows[r, L_A + 2] = hr
            log.rows[r, L_A + 3] = 1 if hit else 0
            log.rows[r, L_A + 4] = arg
            log.rows[r, L_A + 5] = cost
            log.rows[r, L_A + 6] = ds[a, F_MAGIC]
            log.rows[r, L_A + 8] = -1
            log.rows[r, L_A + 10] = -1
            log.rows[r, L_A + 13] = band
            log.rows[r, L_A + 14] = distance(ds[a, F_Q], ds[a, F_R], ds[t, F_Q], ds[t, F_R])
    if not hit:
        return
    cnt[C_SPELL_HITS + sp] += 1
    cnt[C_SPELL_TN_HITS + ti] += 1
    if band == 2:
        cnt[C_SPELL_SELF_HITS] += 1
    size = np.int64(0)
    side = np.int64(-1)
    lr = np.int64(0)
    part = np.int64(-1)
    d6 = np.int64(0)
    rc = np.int64(0)
    if sp == SPELL_FIREBALL or sp == SPELL_BOLT:
        side, lr, part, rc, spared = roll_rider_hit(ds, a, t, run, w, cnt)
        k6 = 0 if sp == SPELL_FIREBALL else 1
        nd6 = fx[SX_FIREBALL_DICE] if sp == SPELL_FIREBALL else fx[SX_BOLT_DICE]
        plus = fx[SX_FIREBALL_PLUS] if sp == SPELL_FIREBALL else fx[SX_BOLT_PLUS]
        if spared:
            nd6 = 0  # "The dragon takes no damage from the attack" (p.18)
        d6 = roll_dice(gst, nd6)
        cnt[C_DICE] += nd6
        if nd6 == 1 and 1 <= d6 <= 6:
            cnt[C_SPELL_D6 + 6 * k6 + d6 - 1] += 1
        if not spared:
            size = damage(ds, t, hit_part(ds, t, part, opt), d6 + plus)
            ds[a, F_DEALT] += size
    elif sp == SPELL_HEAL:
        nd6 = fx[SX_HEAL_DICE]
        d6 = roll_dice(gst, nd6)
        cnt[C_DICE] += nd6
        if nd6 == 1 and 1 <= d6 <= 6:
            cnt[C_SPELL_D6 + 12 + d6 - 1] += 1
        for _ in range(d6 + fx[SX_HEAL_PLUS]):
            p = heal_part(ds, t, arg)
            if p < 0:
                break
            ds[t, F_DP + p] += 1
            size += 1
        ds[t, F_HEALED] += size
    elif sp == SPELL_SHIELD:
        ds[t, F_SHIELD] += fx[SX_SHIELD]  # its size is counted when it fails
    elif sp == SPELL_DISTORT:
        ds[t, F_DISTORT] += arg  # its size is counted on the target's breath
    elif sp == SPELL_DULL or sp == SPELL_SHARPEN:
        before = ds[t, F_CLAW]
        ds[t, F_SPELL_CLAW] += -fx[SX_CLAW_STEPS] if sp == SPELL_DULL else fx[SX_CLAW_STEPS]
        refresh(ds, t, scal, opt)
        size = before - ds[t, F_CLAW] if sp == SPELL_DULL else ds[t, F_CLAW] - before
    elif sp == SPELL_LETHARGY or sp == SPELL_VIGOR:
        st = fx[SX_MR_STEPS] if sp == SPELL_LETHARGY else -fx[SX_MR_STEPS]
        m0 = ds[t, F_MR] + ds[t, F_SPELL_MR]
        ds[t, F_SPELL_MR] += st
        m1 = ds[t, F_MR] + ds[t, F_SPELL_MR]
        m0 = 0 if m0 < 0 else (8 if m0 > 8 else m0)
        m1 = 0 if m1 < 0 else (8 if m1 > 8 else m1)
        size = m1 - m0 if m1 > m0 else m0 - m1
    elif sp == SPELL_QUICKEN:
        ds[t, F_QUICKEN] = 1  # its size is counted when the speed is recorded
    elif sp == SPELL_SLOW:
        ds[t, F_SLOW] = 1
    elif sp == SPELL_SADDLESORE:
        if ds[t, F_RIDER] > 0:
            ds[t, F_SORE] = 1
            size = 1
    elif sp == SPELL_SPIN:
        ds[t, F_F] = (ds[t, F_F] + arg) % 6
        size = arg if arg > 0 else -arg
    if sp != SPELL_SHIELD and sp != SPELL_DISTORT and sp != SPELL_QUICKEN and sp != SPELL_SLOW:
        cnt[C_SPELL_FX + sp] += size
        cnt[C_SPELL_FX_SQ + sp] += size * size
    if log is not None:
        if r >= 0:
            log.rows[r, L_A + 7] = size
            log.rows[r, L_A + 8] = side
            log.rows[r, L_A + 9] = lr
            log.rows[r, L_A + 10] = part
            log.rows[r, L_A + 11] = d6
            log.rows[r, L_A + 12] = rc
    if opt[OPT_RIDER_AT_ONCE] == 1 and (sp == SPELL_FIREBALL or sp == SPELL_BOLT):
        if log is not None:
            log_effects_before(w.scratch, ds, t)
        refresh(ds, t, scal, opt)
        if log is not None:
            log_effects(log, w.scratch, ds, turn, t)
        crash_if_zeroed(ds, nd, run, w, cnt, turn, log)


guard(sys.modules[__name__])
