"""The Dragon Lords Wizard's spells (advanced rules, pp. 18, 24-25): the target number of a
spell, who it may be cast at, and the effects that are more than a rating's change (Distort
Range, Heal, the maneuverability spells). A spell's change to the claws (:func:`spell_claws`)
is applied with the other ratings, in :mod:`.wounds`.
"""

from __future__ import annotations

import sys

import numpy as np

from .... import _kernels
from .... import random as _random
from ...._kernels import game_fn, guard_caches
from .. import hexes, movetables, state, tables
from ..hexes import distance
from ..state import (
    F_ALIVE,
    F_ALT,
    F_DP,
    F_DP0,
    F_MR,
    F_Q,
    F_R,
    F_SPELL_MR,
    F_TEAM,
    F_TOHIT,
    SPELL_BOLT,
    SPELL_FIREBALL,
)
from ..tables import (
    S_RIDER_GROUND_MOD,
    S_RIDER_LONG_MOD,
    S_RIDER_MEDIUM_MOD,
    S_SELF_TARGET,
)
from . import ground, moves, to_hit, wounds
from .to_hit import may_shoot_at
from .wounds import ratings


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


# the parts it calls (and theirs), and every module the mechanics read
guard_caches(
    sys.modules[__name__],
    [wounds, ground, moves, to_hit, hexes, movetables, state, tables, _random, _kernels],
)
