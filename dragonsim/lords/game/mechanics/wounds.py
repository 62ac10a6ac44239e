"""Dragon Lords damage and what it does (pp. 11-12): a hit's damage and its allocation to a
body part, serious damage and the spells' changes to a dragon's ratings (maneuverability,
claws, breath, speeds), critical hits (optional rules, p.19).
"""

from __future__ import annotations

import sys

from .... import _kernels
from .... import random as _random
from ...._kernels import game_fn, guard_caches
from .. import hexes, movetables, state, tables
from ..state import (
    CE_DAZED,
    CE_HEAD,
    CE_KILLED,
    CE_LEG,
    CE_RIDER,
    CE_WING,
    F_ABSORBED,
    F_ALIVE,
    F_BREATH,
    F_BREATH0,
    F_CLAW,
    F_CLAW0,
    F_CRIT_BREATH,
    F_CRIT_KILLED,
    F_CRIT_MR,
    F_DAZED,
    F_DEALT,
    F_DP,
    F_DP0,
    F_LEGS,
    F_MAX,
    F_MAX0,
    F_MR,
    F_MR0,
    F_RIDER,
    F_RTARGET,
    F_SHIELD,
    F_SPELL_CLAW,
    OPT_CRASH_ZEROED,
    OPT_DULL_TO_BLUNT,
    PART_BODY,
    PART_HEAD,
    PART_LEFT_WING,
    PART_RIGHT_WING,
    PART_TAIL,
)
from ..tables import (
    S_BREATH_STEPS_LOST,
    S_BROKEN_LEGS,
    S_CLAW_STEPS_LOST,
    S_MR_STEPS_LOST,
    S_SERIOUS_DEN,
    S_SERIOUS_NUM,
    S_SPEED_LOST_PER_WING,
)
from . import ground, moves, to_hit
from .ground import hit_part


@game_fn(inline="always")
def spell_claws(c, delta, floor):
    """Tooth-and-claw step ``c`` after ``delta`` steps of Dull (< 0) and Sharpen (> 0): "No
    sharpness rating may be forced below Dull" (``floor``: the reading lords.dull_floor, 1
    Dull, 0 Blunt; a step already below it stays) and "Teeth and claws may never be sharper
    than Razor Sharp" (p.25)."""
    if delta < 0:
        lo = floor if c >= floor else c
        c = c + delta
        return c if c > lo else lo
    c = c + delta
    return c if c < 4 else 4


@game_fn(inline="always")
def ratings(ds, i, scal):
    """``(breath, claws, MR index)`` of dragon ``i`` from its damage points and its critical
    hits, before clamping: the sheet's steps, less serious damage's (p.12) and the criticals'
    (head shots, broken legs, torn wings, optional rules p.19), which "add up"."""
    num = scal[S_SERIOUS_NUM]
    den = scal[S_SERIOUS_DEN]
    head = 1 if ds[i, F_DP + PART_HEAD] * den < ds[i, F_DP0 + PART_HEAD] * num else 0
    body = 1 if ds[i, F_DP + PART_BODY] * den < ds[i, F_DP0 + PART_BODY] * num else 0
    tail = 1 if ds[i, F_DP + PART_TAIL] * den < ds[i, F_DP0 + PART_TAIL] * num else 0
    b = ds[i, F_BREATH0] - scal[S_BREATH_STEPS_LOST] * head - ds[i, F_CRIT_BREATH]
    c = ds[i, F_CLAW0] - scal[S_CLAW_STEPS_LOST] * body - ds[i, F_LEGS]
    m = ds[i, F_MR0] + scal[S_MR_STEPS_LOST] * tail + ds[i, F_CRIT_MR]
    return b, c, m


@game_fn
def refresh(ds, i, scal, opt):
    """Serious damage effects and removal for dragon ``i`` from its damage points (p.12).

    "As each body part is reduced to less than half of its original damage points": head ->
    breath one step down (minimum Cold), body -> tooth and claw one step down, each wing ->
    maximum speed -2, tail -> maneuverability two steps down (minimum I); "if any of a
    dragon's body part damage tracks is reduced to 0 points, the dragon ... is removed"; with
    ``OPT_CRASH_ZEROED`` only a zeroed head or body kills ("If its head or body are reduced to
    0 damage points, the dragon has been killed", p.17): a zeroed tail or wing crashes it
    (the engine's ``settle``). The critical hits' lasting effects (optional rules, p.19: the
    ``F_CRIT_*`` and ``F_LEGS`` columns, :func:`ratings`) add to these and clamp alike, and a
    critical "Killed!" removes the dragon here, when all have breathed.
    """
    num = scal[S_SERIOUS_NUM]
    den = scal[S_SERIOUS_DEN]
    dead = ds[i, F_CRIT_KILLED] == 1
    for p in range(5):
        if ds[i, F_DP + p] <= 0 and (p <= PART_BODY or opt[OPT_CRASH_ZEROED] == 0):
            dead = True
    lw = 1 if ds[i, F_DP + PART_LEFT_WING] * den < ds[i, F_DP0 + PART_LEFT_WING] * num else 0
    rw = 1 if ds[i, F_DP + PART_RIGHT_WING] * den < ds[i, F_DP0 + PART_RIGHT_WING] * num else 0
    b, c, m = ratings(ds, i, scal)
    ds[i, F_BREATH] = b if b > 0 else 0
    c = c if c > 0 else 0
    if ds[i, F_SPELL_CLAW] != 0:
        c = spell_claws(c, ds[i, F_SPELL_CLAW], 1 - opt[OPT_DULL_TO_BLUNT])
    ds[i, F_CLAW] = c
    ds[i, F_MR] = m if m < 8 else 8
    ds[i, F_MAX] = ds[i, F_MAX0] - scal[S_SPEED_LOST_PER_WING] * (lw + rw)
    if dead:
        ds[i, F_ALIVE] = 0


@game_fn
def critical_effect(ds, t, effect):
    """The effect a Critical Hit Table result ``effect`` (``CE_*``) has on ``t``: "Rider
    thrown! The dragon loses its rider for remainder of game. If the dragon has no rider, a
    leg is broken instead!" (p.19); every other result is itself."""
    if effect == CE_RIDER and ds[t, F_RIDER] == 0:
        return CE_LEG
    return effect


@game_fn
def critical_rerolls(ds, t, effect, scal):
    """Whether the critical ``effect`` (``CE_*``, after :func:`critical_effect`) on ``t`` is
    rerolled: "In the unlikely event of 4 broken legs, reroll. Also, in no case can any
    statistic be reduced below the lowest possible rating for that statistic. If this
    happens, simply reroll" (p.19): a head shot at Cold, a broken leg at the lowest
    tooth-and-claw step or that would be the fourth, a torn wing at MR I. The ratings are
    those the damage ticked off so far and the criticals make (:func:`ratings`)."""
    b, c, m = ratings(ds, t, scal)
    if effect == CE_HEAD:
        return b <= 0
    if effect == CE_LEG:
        return c <= 0 or ds[t, F_LEGS] + 1 >= scal[S_BROKEN_LEGS]
    if effect == CE_WING:
        return m >= 8
    return False


@game_fn
def apply_critical(ds, t, effect):
    """The lasting effect of a critical ``effect`` (``CE_*``, after :func:`critical_effect`)
    on ``t`` (p.19): Killed (removed when all have breathed, :func:`refresh`), a head shot
    (-1 breath step), a broken leg (-1 tooth-and-claw step), Dazed (-2 to its initiative
    rolls), a torn wing (-1 maneuverability step), the rider thrown. The double and triple
    damage is the engine's (it needs the hit's damage)."""
    if effect == CE_KILLED:
        ds[t, F_CRIT_KILLED] = 1
    elif effect == CE_HEAD:
        ds[t, F_CRIT_BREATH] += 1
    elif effect == CE_LEG:
        ds[t, F_LEGS] += 1
    elif effect == CE_DAZED:
        ds[t, F_DAZED] += 1
    elif effect == CE_WING:
        ds[t, F_CRIT_MR] += 1
    elif effect == CE_RIDER:
        ds[t, F_RIDER] = 0
        ds[t, F_RTARGET] = -1


@game_fn
def damage(ds, t, part, amount):
    """Tick ``amount`` points off ``t``'s ``part`` (not below 0); returns the points taken.
    A Force Shield on ``t`` (optional rules, p.24: "absorb 10 points of damage inflicted upon
    the target dragon before it fails. Any additional damage is inflicted as normal") takes
    what it can of ``amount`` first, whatever inflicts it (rule ``lords.advanced.wizard``)."""
    if ds[t, F_SHIELD] > 0 and amount > 0:
        ab = amount if amount < ds[t, F_SHIELD] else ds[t, F_SHIELD]
        ds[t, F_SHIELD] -= ab
        ds[t, F_ABSORBED] += ab
        amount -= ab
    left = ds[t, F_DP + part]
    took = amount if amount < left else left
    if took < 0:
        took = 0
    ds[t, F_DP + part] = left - took
    return took


@game_fn
def resolve_breath(ds, a, t, side, loc_roll, dmg_roll, tb_alloc, tb_weapon, opt):
    """A breath hit of ``a`` on ``t`` from direction ``side`` (0 F .. 5 FL): "Roll 2d6 and
    cross-reference that number with the direction the attack came from on the Damage
    Allocation Table", then the breath weapon's dice (``dmg_roll`` = their sum) plus its bonus.
    Ticks the points off (a zeroed tail or wing's go to the body, :func:`hit_part`) and
    credits ``a``; returns the part the table gives (p.11)."""
    part = tb_alloc[loc_roll, side]
    dmg = dmg_roll + tb_weapon[ds[a, F_BREATH], 1]
    ds[a, F_DEALT] += damage(ds, t, hit_part(ds, t, part, opt), dmg)
    return part


# the parts it calls (and theirs), and every module the mechanics read
guard_caches(
    sys.modules[__name__],
    [ground, moves, to_hit, hexes, movetables, state, tables, _random, _kernels],
)
