"""Dragon Lords close combat (p.13; tactics, optional rules p.22): the modifier a dragon adds
to its 2d6, the engagement's start, the winner, and the result: the loser's damage and the
winner's own (allocated by the self-damage policy).
"""

from __future__ import annotations

import sys

from .... import _kernels
from .... import random as _random
from ...._kernels import game_fn, guard_caches
from .. import hexes, movetables, state, tables
from ..state import (
    F_ALT,
    F_CC_ADJ,
    F_CLAW,
    F_DEALT,
    F_DP,
    F_DP0,
    F_F,
    F_LAST,
    F_MIN,
    F_MR,
    F_RIDER,
    F_SPEED,
    OPT_RIDERS,
    PART_BODY,
)
from ..tables import (
    S_CC_ALTITUDE_DROP,
    S_CC_SPEED_LOSS,
    S_LANCER_CC,
    S_LANCER_DAMAGE,
    S_SELF_DAMAGE_POLICY,
    S_SERIOUS_DEN,
    S_SERIOUS_NUM,
)
from . import ground, moves, to_hit, wounds
from .ground import hit_part
from .wounds import damage, refresh


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
def cc_winner(ds, a, b, ra, rb, cc_by_mr, scal, opt):
    """ "Both ... roll 2d6 and add the close combat modifiers ... The highest modified result
    wins the combat. If the numbers are tied, the combat is a draw" (-1) (p.13)."""
    sa = ra + cc_modifier(ds, a, cc_by_mr, scal, opt)
    sb = rb + cc_modifier(ds, b, cc_by_mr, scal, opt)
    if sa == sb:
        return -1
    return a if sa > sb else b


@game_fn(forceinline=True)  # records: inlined by LLVM (see _kernels.inner_fn)
def resolve_close_combat(ds, w, l, rolls, tb, opt, spared=False):
    """The rest of a decided close combat of winner ``w`` and loser ``l``, its dice ``rolls =
    (col, loc_roll, dmg_roll, self_roll, facing_roll, winner_facing)`` (int64s): "the winning
    dragon then rolls 1d6 to determine ... which column to use" (``col`` 0..5), 2d6 location,
    tooth and claw dice (sum ``dmg_roll``); the winner takes ``self_roll`` points itself; "The
    loser now rolls 1d6 and consults the direction template. This is the direction (relative
    to its original facing) in which the losing dragon is now facing" (``facing_roll`` 0..5 =
    template hexside); the winner turns to ``winner_facing``. ``tb``: the rules tables (the
    hit locations, the claws' dice, the scalars). ``spared``: the rider check killed the
    loser's rider instead, and "The dragon takes no damage from the attack" (p.18). Returns
    the part hit (p.13)."""
    col, loc_roll, dmg_roll, self_roll, facing_roll, winner_facing = rolls
    scal = tb.scalars
    part = tb.alloc[loc_roll, col]
    if not spared:
        dmg = dmg_roll + tb.weapon[ds[w, F_CLAW], 1]
        if opt[OPT_RIDERS] == 1 and ds[w, F_RIDER] == 1:
            dmg += scal[S_LANCER_DAMAGE]
        ds[w, F_DEALT] += damage(ds, l, hit_part(ds, l, part, opt), dmg)
    allocate_self_damage(ds, w, self_roll, scal[S_SELF_DAMAGE_POLICY], scal)
    ds[l, F_F] = (ds[l, F_F] - facing_roll) % 6
    ds[w, F_F] = winner_facing
    refresh(ds, w, scal, opt)
    refresh(ds, l, scal, opt)
    return part


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


# the parts it calls (and theirs), and every module the mechanics read
guard_caches(
    sys.modules[__name__],
    [wounds, ground, moves, to_hit, hexes, movetables, state, tables, _random, _kernels],
)
