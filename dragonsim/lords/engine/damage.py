"""What a hit does beside its damage points: the rider check a hit on the rider's part may
force (p.18, :func:`roll_rider_check`), a rider's own hit (:func:`roll_rider_hit`), and
the damage a Force Shield absorbed, counted (p.25, :func:`count_absorbed`)."""

from __future__ import annotations

import sys

import numpy as np

from ..._kernels import game_fn
from ..bots.dispatch import (
    choose_side,
)
from ..game.hexes import direction_template
from ..game.mechanics import (
    rider_at_risk,
    rider_check,
    roll_dice,
)
from ..game.state import (
    C_DICE,
    C_RIDER_CHECKS,
    C_RIDER_KILLED,
    C_SPELL_FX,
    C_SPELL_FX_SQ,
    F_ABSORBED,
    F_F,
    F_POLICY,
    F_Q,
    F_R,
    OPT_RIDER_HIT_NO_CHECK,
    RK_RIDER,
    SPELL_SHIELD,
)
from .inputs import guard


@game_fn
def roll_rider_check(ds, t, part, source, opt, scal, gst, cnt):
    """The rider check of a hit on ``t``'s ``part`` (p.18), from breath, close combat or a
    rider's attack (``source``: ``RK_*``): when the rule is on and the body of a dragon with a
    rider is hit, roll 2d6 (after the location roll, before the damage dice); a 7 kills the
    rider (:func:`~dragonsim.lords.game.mechanics.rider_check`). Returns ``(roll, spared)``: the
    roll (0: none) and whether the dragon takes no damage from the attack. Under the reading
    ``lords.rider_check_rider_hits = breath-and-close-combat`` (``OPT_RIDER_HIT_NO_CHECK``) a
    rider's attack (``RK_RIDER``, the damage spells too) rolls none."""
    if not rider_at_risk(ds, t, part, opt):
        return np.int64(0), False
    if source == RK_RIDER and opt[OPT_RIDER_HIT_NO_CHECK] == 1:
        return np.int64(0), False
    rc = roll_dice(gst, 2)
    cnt[C_DICE] += 2
    cnt[C_RIDER_CHECKS + source] += 1
    spared = rider_check(ds, t, rc, scal)
    if spared:
        cnt[C_RIDER_KILLED + source] += 1
    return rc, spared


@game_fn
def roll_rider_hit(ds, a, t, run, w, cnt):
    """Where a rider's hit on ``t`` lands, "handled like a dragon's breath weapon attack"
    (p.18), a Fireball or a Lightning Bolt's too ("Resolve damage as for a breath attack",
    p.24): the direction template from ``a`` (a corner's side chosen by ``a``'s bot), the 2d6
    on that column of the Damage Allocation Table, and the rider check of a body hit.
    Returns ``(side, location roll, part, the rider check's 2d6, spared)``."""
    opt, tb = run.opt, run.tb
    s1, s2 = direction_template(ds[a, F_Q], ds[a, F_R], ds[t, F_Q], ds[t, F_R], ds[t, F_F])
    side = s1
    if s2 >= 0:
        side = choose_side(ds[a, F_POLICY], ds, a, t, s1, s2, tb.alloc, w.pst)
    lr = roll_dice(w.gst, 2)
    cnt[C_DICE] += 2
    part = tb.alloc[lr, side]
    rc, spared = roll_rider_check(ds, t, part, RK_RIDER, opt, tb.scalars, w.gst, cnt)
    return side, lr, part, rc, spared


@game_fn(inline="always")
def count_absorbed(ds, i, cnt):
    """What the Force Shields on ``i`` absorbed since the last count (a shield's effect)."""
    ab = ds[i, F_ABSORBED]
    if ab > 0:
        cnt[C_SPELL_FX + SPELL_SHIELD] += ab
        cnt[C_SPELL_FX_SQ + SPELL_SHIELD] += ab * ab
        ds[i, F_ABSORBED] = 0


guard(sys.modules[__name__])
