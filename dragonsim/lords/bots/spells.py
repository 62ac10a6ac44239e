"""The Wizard's spell policies (advanced rules, pp. 18, 24-25): which spell, at whom, and when.

The run option ``spells`` (``OPT_SPELL_POLICY``) picks one for every Wizard in a game, whatever
bot flies its dragon:

* ``"bot"`` (:func:`plan_spell`, the default): the spell and target of the highest value, the
  chance to land it (:func:`p_hit`, the 2d6 against its target number) times what it is worth
  this turn in damage points, less the magic points' price when they run short
  (:func:`point_price`). What each spell is worth (:func:`spell_value`): Fireball and
  Lightning Bolt their mean damage; Heal the points it can restore (half as much again when
  the head or body is down to a third); Force Shield the damage the dragon can expect this
  turn (the enemies' breath that can reach it from where they stand now, close combat, and
  rider attacks still to come), at most 10; Saddlesore the mean of the rider action it takes;
  Dull and Sharpen a step of claws in a close combat this turn (the loser's share of a fight
  is about a half); Distort Range the change in the best breath the affected dragon has this
  turn; Spin the same by turning the target. Lethargy, Vigor, Quicken and Slow act on the
  next turn's speed and turning, whose worth only a look-ahead could price: the bot does not
  cast them. It casts nothing when nothing is worth its price. It draws no random numbers.
* ``"never"``: no Wizard casts (a Wizard only rides).
* ``"random"`` (:func:`pick_spell`): a uniform random legal (spell, target) pair, its argument
  uniform too, from the policy stream.

A legal pair: a spell whose cost the Wizard's magic points cover, at a target in play within
the spell's long range (its own dragon always) that :func:`~dragonsim.lords.game.mechanics.
may_cast_at` allows.
"""

from __future__ import annotations

import sys

import numpy as np

from ... import _kernels
from ..._kernels import game_fn, guard_caches
from ..game import hexes, mechanics, state, tables
from ..game.mechanics import (
    distort_shift,
    draw_below,
    is_enemy,
    may_cast_at,
    spell_claws,
    spell_target_number,
    standing,
)
from ..game.mechanics import target_number as breath_tn
from ..game.state import (
    F_ABLATE,
    F_ALIVE,
    F_BREATH,
    F_CLAW,
    F_DP,
    F_DP0,
    F_ENG,
    F_F,
    F_INIT,
    F_MAGIC,
    F_POLICY,
    F_Q,
    F_QUICKEN,
    F_R,
    F_RIDER,
    F_SLOW,
    F_SPELL_MR,
    F_TEAM,
    OPT_DULL_TO_BLUNT,
    OPT_RANGE_MOD,
    PART_BODY,
    PART_HEAD,
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
    SX_RANGE_STEPS,
    SX_SHIELD,
    SX_SPIN_HEXSIDES,
)
from . import SKILL_SPELLS, SKILLS
from . import plan as _plan
from .plan import PLAN_WEIGHTS, W_LETHARGY, W_QUICKEN, W_SLOW, W_VIGOR

N_SPELLS = 13
#: magic points below which each point is priced (:func:`point_price`)
SCARCE_BELOW = 20
#: the price of a point then, in damage points
POINT_PRICE = 0.25
#: a close combat's loser takes the winner's damage: about half the time each way
CC_SHARE = 0.5
#: the order the bot weighs the spells in: the cheap, sure values first, so that the dearer
#: ones to work out (Spin, Distort Range) can often stop at a bound; the four next-turn spells
#: (Lethargy, Quicken, Slow, Vigor) are not weighed (-1)
BOT_ORDER = (
    SPELL_FIREBALL,
    SPELL_BOLT,
    SPELL_HEAL,
    SPELL_SADDLESORE,
    SPELL_DULL,
    SPELL_SHARPEN,
    SPELL_SHIELD,
    SPELL_SPIN,
    SPELL_DISTORT,
    -1,
    -1,
    -1,
    -1,
)
#: the order a Wizard whose bot has ``SKILL_SPELLS`` weighs them in: every spell
SKILLED_ORDER = (*BOT_ORDER[:9], SPELL_SLOW, SPELL_LETHARGY, SPELL_QUICKEN, SPELL_VIGOR)


@game_fn(inline="always")
def p_hit(tn, auto_miss, auto_hit):
    """P(2d6 >= tn), a roll of ``auto_miss`` (2) always missing and ``auto_hit`` (12) always
    hitting (p.10): the sums' ways, 6 - |s - 7| of 36."""
    k = 0
    for r in range(2, 13):
        if r > auto_miss and (r >= auto_hit or r >= tn):
            k += 6 - abs(r - 7)
    return k / 36.0


@game_fn(inline="always")
def mean_dice(n, plus):
    return 3.5 * n + plus


@game_fn(inline="always")
def point_price(magic):
    """The price of a magic point in damage points: 0 while the Wizard has plenty (a Fireball
    costs 1 of its 60), ``POINT_PRICE`` below ``SCARCE_BELOW``."""
    return POINT_PRICE if magic < SCARCE_BELOW else 0.0


@game_fn(inline="always")
def best_breath(ds, k, team, tb, range_mod, shift):
    """The best expected breath damage ``k`` can deal this turn to a dragon of ``team`` (or,
    ``team`` < 0, of any team but ``k``'s) from where it stands, its target numbers moved by
    ``shift`` (a Distort Range), or -1e9 when it cannot breathe at any."""
    scal = tb.scalars
    if ds[k, F_ALIVE] == 0 or ds[k, F_ENG] >= 0:
        return -1e9
    best = -1e9
    m = mean_dice(tb.weapon[ds[k, F_BREATH], 0], tb.weapon[ds[k, F_BREATH], 1])
    for j in range(ds.shape[0]):
        if not is_enemy(ds, k, j) or ds[j, F_ENG] >= 0:
            continue
        if team >= 0 and ds[j, F_TEAM] != team:
            continue
        tn = breath_tn(ds, k, j, standing(ds, k), tb, range_mod)
        if tn < 0:
            continue
        if shift != 0:
            tn += distort_shift(ds, k, j, shift, tb.range_step, tb.step_mod)
        v = p_hit(tn, scal[S_AUTO_MISS], scal[S_AUTO_HIT]) * m
        if v > best:
            best = v
    return best


@game_fn(inline="always")
def threat(ds, i, j, tb, range_mod):
    """The damage ``j`` (``i``'s own dragon or an ally) can expect this turn: each enemy's
    best breath that can reach it now (an engaged dragon neither breathes nor is breathed at,
    p.10), its close-combat opponent's claws, and the rider attacks still to come."""
    scal = tb.scalars
    out = 0.0
    for k in range(ds.shape[0]):
        if not is_enemy(ds, j, k):
            continue
        if ds[k, F_ENG] < 0 and ds[j, F_ENG] < 0:
            tn = breath_tn(ds, k, j, standing(ds, k), tb, range_mod)
            if tn >= 0:
                w = tb.weapon[ds[k, F_BREATH]]
                out += p_hit(tn, scal[S_AUTO_MISS], scal[S_AUTO_HIT]) * mean_dice(w[0], w[1])
        if ds[j, F_ENG] == k:
            w = tb.weapon[ds[k, F_CLAW]]
            out += CC_SHARE * mean_dice(w[0], w[1])
        kind = ds[k, F_RIDER]
        if ds[k, F_INIT] > ds[i, F_INIT] and tb.rider_range[kind, 1] > 0:
            d = hexes.distance(ds[k, F_Q], ds[k, F_R], ds[j, F_Q], ds[j, F_R])
            if 1 <= d <= tb.rider_range[kind, 1]:
                band = 0 if d <= tb.rider_range[kind, 0] else 1
                rd = tb.rider_dice[kind, band]
                out += 0.5 * mean_dice(rd[0], rd[1])
    return out


@game_fn(inline="always")
def claw_mean(tb, c):
    return mean_dice(tb.weapon[c, 0], tb.weapon[c, 1])


@game_fn(inline="always")
def spell_value(ds, i, s, t, tb, range_mod, opt, need):
    """``(value, argument)``: what ``i``'s spell ``s`` landing on ``t`` is worth this turn in
    damage points (see the module's text), and the argument it would be cast with. A value
    that cannot exceed ``need`` may be answered 0 without working it out (the search for
    Distort Range's and Spin's best argument stops there)."""
    fx = tb.spell_fx
    enemy = is_enemy(ds, i, t)
    if s == SPELL_FIREBALL:
        return mean_dice(fx[SX_FIREBALL_DICE], fx[SX_FIREBALL_PLUS]), np.int64(0)
    if s == SPELL_BOLT:
        return mean_dice(fx[SX_BOLT_DICE], fx[SX_BOLT_PLUS]), np.int64(0)
    if s == SPELL_HEAL:
        if enemy:
            return 0.0, np.int64(-1)
        lost = 0
        for p in range(5):
            lost += ds[t, F_DP0 + p] - ds[t, F_DP + p]
        h = mean_dice(fx[SX_HEAL_DICE], fx[SX_HEAL_PLUS])
        v = h if h < lost else float(lost)
        for p in (PART_HEAD, PART_BODY):
            if 3 * ds[t, F_DP + p] <= ds[t, F_DP0 + p]:
                v *= 1.5
                break
        return v, np.int64(-1)
    if s == SPELL_SHIELD:
        if enemy:
            return 0.0, np.int64(0)
        th = threat(ds, i, t, tb, range_mod)
        return (th if th < fx[SX_SHIELD] else float(fx[SX_SHIELD])), np.int64(0)
    if s == SPELL_SADDLESORE:
        kind = ds[t, F_RIDER]
        if not enemy or kind < 2:
            return 0.0, np.int64(0)
        if kind == RIDER_WIZARD:
            return 0.5 * mean_dice(fx[SX_FIREBALL_DICE], fx[SX_FIREBALL_PLUS]), np.int64(0)
        rd = tb.rider_dice[kind, 0]
        return 0.5 * mean_dice(rd[0], rd[1]), np.int64(0)
    if s == SPELL_DULL or s == SPELL_SHARPEN:
        e = ds[t, F_ENG]
        if e < 0:
            return 0.0, np.int64(0)
        c = ds[t, F_CLAW]
        if s == SPELL_DULL and enemy and ds[e, F_TEAM] == ds[i, F_TEAM]:
            c2 = spell_claws(c, -fx[SX_CLAW_STEPS], 1 - opt[OPT_DULL_TO_BLUNT])
            return CC_SHARE * (claw_mean(tb, c) - claw_mean(tb, c2)), np.int64(0)
        if s == SPELL_SHARPEN and not enemy:
            c2 = spell_claws(c, fx[SX_CLAW_STEPS], 1 - opt[OPT_DULL_TO_BLUNT])
            return CC_SHARE * (claw_mean(tb, c2) - claw_mean(tb, c)), np.int64(0)
        return 0.0, np.int64(0)
    if s == SPELL_DISTORT:
        if opt[OPT_RANGE_MOD] == 0:
            return 0.0, np.int64(1)
        # one step moves the number by at most the largest step of the range row: at most
        # that many sixths of the 2d6's chance ... of the target's mean breath
        w = tb.weapon[ds[t, F_BREATH]]
        top = 0
        for k in range(4):
            d = abs(tb.step_mod[k + 1] - tb.step_mod[k])
            top = d if d > top else top
        if top * 6 / 36.0 * mean_dice(w[0], w[1]) <= need:
            return 0.0, np.int64(1)
        team = ds[i, F_TEAM] if enemy else np.int64(-1)
        b0 = best_breath(ds, t, team, tb, range_mod, 0)
        if b0 < -1e8:
            return 0.0, np.int64(1)
        best = 0.0
        arg = np.int64(1)
        for d in (-fx[SX_RANGE_STEPS], fx[SX_RANGE_STEPS]):
            b1 = best_breath(ds, t, team, tb, range_mod, d)
            v = b0 - b1 if enemy else b1 - b0
            if v > best:
                best = v
                arg = d
        return best, arg
    if s == SPELL_SPIN:
        if ds[t, F_ENG] >= 0:
            return 0.0, np.int64(1)
        team = ds[i, F_TEAM] if enemy else np.int64(-1)
        w = tb.weapon[ds[t, F_BREATH]]
        m = mean_dice(w[0], w[1])
        if m <= need:
            return 0.0, np.int64(1)
        f0 = ds[t, F_F]
        b0 = best_breath(ds, t, team, tb, range_mod, 0)
        b0 = b0 if b0 > 0.0 else 0.0
        top = b0 if enemy else m - b0  # what turning it could be worth at most
        if top <= need:
            return 0.0, np.int64(1)
        best = 0.0
        arg = np.int64(1)
        n = fx[SX_SPIN_HEXSIDES]
        for k in range(2 * n):
            d = n - k // 2 if k % 2 == 0 else -(n - k // 2)  # the widest turns first
            ds[t, F_F] = (f0 + d) % 6
            b1 = best_breath(ds, t, team, tb, range_mod, 0)
            b1 = b1 if b1 > 0.0 else 0.0
            v = b0 - b1 if enemy else b1 - b0
            if v > best:
                best = v
                arg = d
                if enemy and b1 == 0.0:
                    break  # out of its reach: no turn does better
        ds[t, F_F] = f0
        return best, arg
    return 0.0, np.int64(0)  # Lethargy, Vigor, Quicken, Slow: next turn's, not priced


@game_fn(inline="always")
def next_turn_value(ds, i, s, t, plan):
    """What a next-turn spell (p.25) landing on ``t`` is worth to a Wizard whose bot has
    ``SKILL_SPELLS`` (hunter-5), in damage points: the planning table's named weights (Slow and
    Lethargy on an enemy, Quicken and Vigor on its own dragon or an ally), 0 where the spell
    would not act (on the wrong side, or its effect already pending)."""
    enemy = is_enemy(ds, i, t)
    if s == SPELL_SLOW:
        return 0.0 if not enemy or ds[t, F_SLOW] > 0 else plan[PLAN_WEIGHTS, W_SLOW]
    if s == SPELL_LETHARGY:
        return 0.0 if not enemy or ds[t, F_SPELL_MR] > 0 else plan[PLAN_WEIGHTS, W_LETHARGY]
    if s == SPELL_QUICKEN:
        return 0.0 if enemy or ds[t, F_QUICKEN] > 0 else plan[PLAN_WEIGHTS, W_QUICKEN]
    if s == SPELL_VIGOR:
        return 0.0 if enemy or ds[t, F_SPELL_MR] < 0 else plan[PLAN_WEIGHTS, W_VIGOR]
    return 0.0


@game_fn
def plan_spell(ds, i, tb, range_mod, opt, plan):
    """The "bot" policy: ``(spell, target, argument)`` of the highest chance x value less the
    points' price, or ``(-1, -1, 0)`` when none is worth casting. A Wizard whose dragon's bot
    has ``SKILL_SPELLS`` (hunter-5) weighs the four next-turn spells too
    (:func:`next_turn_value`)."""
    scal = tb.scalars
    magic = ds[i, F_MAGIC]
    price = point_price(magic)
    skilled = SKILLS[ds[i, F_POLICY]] & ~ds[i, F_ABLATE] & SKILL_SPELLS != 0
    best = 0.0
    bs = np.int64(-1)
    bt = np.int64(-1)
    ba = np.int64(0)
    for t in range(ds.shape[0]):
        for k in range(N_SPELLS):
            s = SKILLED_ORDER[k] if skilled else BOT_ORDER[k]
            cost = tb.spells[s, 0]
            if s < 0 or cost > magic or not may_cast_at(ds, i, t, s, opt):
                continue
            tn, band = spell_target_number(
                ds, i, t, s, scal[S_BASE_TO_HIT], tb.alt_mod, tb.spells, scal
            )
            if tn < 0:
                continue
            p = p_hit(tn, scal[S_AUTO_MISS], scal[S_AUTO_HIT])
            if p <= 0.0:
                continue
            # (only SKILLED_ORDER holds the next-turn spells)
            if s == SPELL_SLOW or s == SPELL_LETHARGY or s == SPELL_QUICKEN or s == SPELL_VIGOR:
                v, arg = next_turn_value(ds, i, s, t, plan), np.int64(0)
            else:
                v, arg = spell_value(ds, i, s, t, tb, range_mod, opt, (best + price * cost) / p)
            if v <= 0.0:
                continue
            score = p * v - price * cost
            if score > best:
                best = score
                bs = s
                bt = t
                ba = arg
    return bs, bt, ba


@game_fn
def pick_spell(ds, i, tb, opt, pst):
    """The "random" policy: a uniform legal ``(spell, target)`` (reservoir sampling over the
    pairs), its argument uniform: Distort Range one step farther or nearer, Spin 1 or 2
    hexsides either way, Heal's first part any of the five; ``(-1, -1, 0)`` when none."""
    scal = tb.scalars
    magic = ds[i, F_MAGIC]
    n = 0
    bs = np.int64(-1)
    bt = np.int64(-1)
    for t in range(ds.shape[0]):
        for s in range(N_SPELLS):
            if tb.spells[s, 0] > magic or not may_cast_at(ds, i, t, s, opt):
                continue
            tn, band = spell_target_number(
                ds, i, t, s, scal[S_BASE_TO_HIT], tb.alt_mod, tb.spells, scal
            )
            if tn < 0:
                continue
            n += 1
            if draw_below(pst, n) == 0:
                bs = s
                bt = t
    arg = np.int64(0)
    if bs == SPELL_DISTORT:
        st = tb.spell_fx[SX_RANGE_STEPS]
        arg = st if draw_below(pst, 2) == 0 else -st
    elif bs == SPELL_SPIN:
        h = tb.spell_fx[SX_SPIN_HEXSIDES]
        k = draw_below(pst, 2 * h)
        arg = k - h if k < h else k - h + 1
    elif bs == SPELL_HEAL:
        arg = draw_below(pst, 5)
    return bs, bt, arg


guard_caches(
    sys.modules[__name__],
    [_plan, hexes, mechanics, state, tables, _kernels, sys.modules[__package__]],
)
