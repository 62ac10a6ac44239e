"""Dragon Lords to-hit: who may be attacked and the number to roll.

Breath combat (pp. 10-11): who may be breathed at (the arc of fire, the range) and the target
number; the hit roll against it. The riders (advanced rules, p.18): who a rider may shoot at,
its target number, and the check whether a hit rider dies.
"""

from __future__ import annotations

import sys

import numpy as np

from .... import _kernels
from .... import random as _random
from ...._kernels import game_fn, guard_caches
from .. import hexes, movetables, state, tables
from ..hexes import arc_area, distance, may_breathe_angle
from ..state import (
    F_ALIVE,
    F_ALT,
    F_ENG,
    F_F,
    F_Q,
    F_R,
    F_RIDER,
    F_RTARGET,
    F_TEAM,
    F_TOHIT,
    OPT_RIDER_AT_ENGAGED,
    OPT_RIDER_DEATHS,
    PART_BODY,
)
from ..tables import (
    ALT_MOD_GROUND,
    S_BASE_TO_HIT,
    S_MAX_RANGE,
    S_RIDER_GROUND_MOD,
    S_RIDER_HIT_ROLL,
    S_RIDER_LONG_MOD,
    S_RIDER_MEDIUM_MOD,
)


@game_fn(forceinline=True)  # four loads, on every shot: inlined by LLVM
def standing(ds, i):
    """Where dragon ``i`` stands now, as :func:`target_number` reads an attacker's place:
    ``(q, r, facing, altitude)``."""
    return ds[i, F_Q], ds[i, F_R], ds[i, F_F], ds[i, F_ALT]


@game_fn(forceinline=True)  # records: inlined by LLVM (see _kernels.inner_fn)
def target_number(ds, a, t, at, tb, range_mod):
    """Breath target number of ``a`` placed at ``at = (q, r, facing, altitude)`` (int64s;
    where it stands now: :func:`standing`) against ``t`` where ``t`` stands now; -1 when
    ``t`` cannot be breathed at (arc, range, neck bend). ``tb``: the rules tables
    (``KernelTables``: the base number, the arc, altitude modifiers and maximum range);
    ``range_mod``: the range row in force.

    "Start with the base number 8 and modify this number appropriately, using the To-Hit
    Modifiers Table" (p.10): the target's size (wings and body rows, ``F_TOHIT``), the arc area
    it stands in, the Range Key and the altitude difference (p.11), and in the advanced rules
    "If the attacker is on the ground, it gets a -1 to its attack number" (p.19; altitude 0
    is only reached under them). "A dragon can only breathe at a target in its arc of fire
    and within 6 hexes" (p.10)."""
    qa, ra, fa, alta = at
    scal, arc, alt_mod = tb.scalars, tb.arc, tb.alt_mod
    dist = distance(qa, ra, ds[t, F_Q], ds[t, F_R])
    if dist < 1 or dist > scal[S_MAX_RANGE]:
        return -1
    da = alta - ds[t, F_ALT]
    if not may_breathe_angle(dist, da):
        return -1
    area = arc_area(qa, ra, fa, ds[t, F_Q], ds[t, F_R], arc[3], arc[4], arc[5])
    if area < 0:
        return -1
    if da < 0:
        da = -da
    tn = scal[S_BASE_TO_HIT] + ds[t, F_TOHIT] + arc[area] + range_mod[dist] + alt_mod[da]
    if alta == 0:
        tn += alt_mod[ALT_MOD_GROUND]  # "Attacker is on the Ground" (advanced rules, p.19)
    return tn


@game_fn(inline="always")
def is_enemy(ds, i, j):
    """Is ``j`` another dragon in play on a different team from ``i``?"""
    return j != i and ds[j, F_ALIVE] == 1 and ds[j, F_TEAM] != ds[i, F_TEAM]


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


@game_fn
def breath_hit(hit_roll, tn, auto_miss, auto_hit):
    """ "Roll 2d6. If the result is equal to or higher than your final modified target number,
    you hit ... A roll of 2 always misses, and a roll of 12 always hits" (p.10)."""
    if hit_roll <= auto_miss:
        return False
    return hit_roll >= auto_hit or hit_roll >= tn


# the parts it calls (and theirs), and every module the mechanics read
guard_caches(sys.modules[__name__], [hexes, movetables, state, tables, _random, _kernels])
