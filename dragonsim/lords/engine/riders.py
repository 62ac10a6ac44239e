"""Riders' actions (advanced rules, p.18): after movement each rider records its target
(:func:`record_rider_actions`), then the Lancers and Crossbow Shooters attack and the Wizards
cast (:func:`rider_actions`, the spells in :mod:`.spells`)."""

from __future__ import annotations

import sys

import numpy as np

from ..._kernels import game_fn
from ..bots.dispatch import (
    choose_rider_target,
)
from ..game.hexes import distance
from ..game.mechanics import (
    breath_hit,
    damage,
    hit_part,
    may_shoot_at,
    refresh,
    rider_target_number,
    roll_dice,
)
from ..game.state import (
    C_DICE,
    C_RIDER_DEALT,
    C_RIDER_HITS,
    C_RIDER_TN_HITS,
    C_RIDER_TN_TRIES,
    C_RIDER_TRIES,
    C_SORE_LOST,
    F_ALIVE,
    F_DEALT,
    F_POLICY,
    F_Q,
    F_R,
    F_RIDER,
    F_RTARGET,
    F_SORE,
    F_SPELL,
    K_RIDER,
    K_RTARGET,
    K_SPELL,
    L_A,
    N_TN,
    OPT_RIDER_AT_ONCE,
    OPT_RIDER_ATTACKS,
    OPT_WIZARD,
)
from ..game.tables import (
    S_AUTO_HIT,
    S_AUTO_MISS,
    S_BASE_TO_HIT,
)
from .damage import roll_rider_hit
from .ground import crash_if_zeroed
from .inputs import guard
from .log import log_effects, log_effects_before, log_row
from .spells import cast_spell, expire_spells, record_spells


@game_fn
def record_rider_actions(ds, na, run, w, turn, log):
    """ "4. Record Rider Actions" (advanced rules, p.15): "the riders each record their
    chosen action ... just like recording the dragon's speed or its breath weapon target",
    so every rider records its target before any rider acts. A Javelin Thrower, Archer or
    Crossbow Shooter records a target in reach (or none); the Lancer acts only in close
    combat. With the Wizard (``OPT_WIZARD``) "Wizards must also record on their
    player's game log which spell they will cast" (:func:`record_spells`)."""
    opt = run.opt
    for k in range(na):
        i = w.order[k]
        ds[i, F_RTARGET] = -1
        if ds[i, F_ALIVE] == 0 or opt[OPT_RIDER_ATTACKS] == 0:
            continue
        t = choose_rider_target(ds[i, F_POLICY], ds, i, run, w)
        ds[i, F_RTARGET] = t
        if log is not None:
            if t >= 0:
                log_row(log, ds, turn, K_RTARGET, i, t)
    if opt[OPT_WIZARD] == 1:
        record_spells(ds, na, run, w, turn, log)


@game_fn
def rider_actions(ds, nd, na, run, w, cnt, turn, log):
    """ "5. Rider Actions" (advanced rules, p.18): "Rider actions are performed in the order
    of their dragon's initiative scores from lowest to highest" (never moved earlier, p.15).
    Each attack "is handled like a dragon's breath weapon attack": 2d6 against the target
    number (:func:`~dragonsim.lords.game.mechanics.rider_target_number`), on a hit the direction
    template and the 2d6 location, the rider check of a body hit (2d6 = 7: the target's rider
    is killed instead, p.18), then the band's damage from the Rider Abilities Table. Serious
    damage effects and removals wait until every rider has acted, as in breath combat (rule
    ``lords.rider_at_once`` applies them after each attack instead); a rider killed before its
    turn loses its action.

    With the Wizard (``OPT_WIZARD``) the phase begins with the end of last turn's
    spells (:func:`expire_spells`); a rider under Saddlesore "may do nothing during its next
    action phase" (its action is lost, the flag spent), and a Wizard casts its recorded spell
    in its turn (:func:`cast_spell`)."""
    opt, tb = run.opt, run.tb
    scal = tb.scalars
    base = scal[S_BASE_TO_HIT]
    auto_miss = scal[S_AUTO_MISS]
    auto_hit = scal[S_AUTO_HIT]
    gst = w.gst
    at_once = opt[OPT_RIDER_AT_ONCE] == 1
    wizard = opt[OPT_WIZARD] == 1
    if wizard:
        expire_spells(ds, nd, run, cnt)
    for k in range(na):
        a = w.order[k]
        if wizard:
            if ds[a, F_SORE] == 1 and ds[a, F_ALIVE] == 1:
                ds[a, F_SORE] = 0
                if ds[a, F_RIDER] > 0 and (ds[a, F_RTARGET] >= 0 or ds[a, F_SPELL] >= 0):
                    cnt[C_SORE_LOST] += 1
                    if log is not None:
                        r = log_row(log, ds, turn, K_SPELL, a, -1)
                        if r >= 0:
                            log.rows[r, L_A] = -2
                            log.rows[r, L_A + 4] = ds[a, F_SPELL]
                ds[a, F_RTARGET] = -1
                ds[a, F_SPELL] = -1
                continue
            if ds[a, F_SPELL] >= 0:
                if ds[a, F_ALIVE] == 1:
                    cast_spell(ds, nd, a, run, w, cnt, turn, log)
                else:
                    ds[a, F_SPELL] = -1
                continue
        t = ds[a, F_RTARGET]
        if t < 0 or ds[a, F_ALIVE] == 0 or ds[a, F_RIDER] == 0:
            continue
        if not may_shoot_at(ds, a, t, opt):
            continue  # its target was removed (with lords.rider_at_once): the shot is lost
        tn, band = rider_target_number(ds, a, t, base, tb.alt_mod, tb.rider_range, scal)
        hr = roll_dice(gst, 2)
        cnt[C_DICE] += 2
        cnt[C_RIDER_TRIES + band] += 1
        ti = tn if tn < N_TN else N_TN - 1
        cnt[C_RIDER_TN_TRIES + ti] += 1
        hit = breath_hit(hr, tn, auto_miss, auto_hit)
        r = np.int64(-1)
        if log is not None:
            r = log_row(log, ds, turn, K_RIDER, a, t)  # the target's track before
            if r >= 0:
                log.rows[r, L_A + 0] = tn
                log.rows[r, L_A + 1] = hr
                log.rows[r, L_A + 2] = 1 if hit else 0
                log.rows[r, L_A + 3] = -1
                log.rows[r, L_A + 8] = band
                log.rows[r, L_A + 9] = distance(ds[a, F_Q], ds[a, F_R], ds[t, F_Q], ds[t, F_R])
                log.rows[r, L_A + 10] = -1  # riders have a 360 deg arc: no arc area
        if not hit:
            continue
        cnt[C_RIDER_HITS + band] += 1
        cnt[C_RIDER_TN_HITS + ti] += 1
        side, lr, part, rc, spared = roll_rider_hit(ds, a, t, run, w, cnt)
        kind = ds[a, F_RIDER]
        nd6 = 0 if spared else tb.rider_dice[kind, band, 0]
        plus = 0 if spared else tb.rider_dice[kind, band, 1]
        dr_ = roll_dice(gst, nd6)
        cnt[C_DICE] += nd6
        took = damage(ds, t, hit_part(ds, t, part, opt), dr_ + plus) if not spared else 0
        ds[a, F_DEALT] += took
        cnt[C_RIDER_DEALT + a] += took
        if log is not None:
            if r >= 0:
                log.rows[r, L_A + 3] = side
                log.rows[r, L_A + 4] = lr
                log.rows[r, L_A + 5] = part
                log.rows[r, L_A + 6] = dr_
                log.rows[r, L_A + 7] = took
                log.rows[r, L_A + 11] = rc
                log.rows[r, L_A + 12] = plus
        if at_once:
            if log is not None:
                log_effects_before(w.scratch, ds, t)
            refresh(ds, t, scal, opt)
            if log is not None:
                log_effects(log, w.scratch, ds, turn, t)
            crash_if_zeroed(ds, nd, run, w, cnt, turn, log)
    for i in range(nd):
        if log is not None:
            log_effects_before(w.scratch, ds, i)
        refresh(ds, i, scal, opt)
        if log is not None:
            log_effects(log, w.scratch, ds, turn, i)
    crash_if_zeroed(ds, nd, run, w, cnt, turn, log)


guard(sys.modules[__name__])
