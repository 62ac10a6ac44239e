"""The planners' shared tables, built once per kernel call, and the small helpers reading them.

* the planning table (float64 ``[N_PLAN_ROWS, PLAN_WIDTH]``, :func:`plan_table`): exact odds
  from :mod:`dragonsim.lords.game.odds` -- P(hit) by target number, mean damage by weapon step,
  P(win) / P(lose) of a close combat by the difference of the modifiers;
* the geometry table (int64, :func:`geometry_table`): per offset within breath range and
  facing the arc area and the to-hit modifiers it brings, the hex distance per offset, and the
  room ahead per board hex and facing, so scoring an end state is lookups, not geometry.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from ... import _kernels
from ..._kernels import game_fn, guard_caches
from ..game import hexes, state
from ..game.hexes import DQ, DR, arc_area, distance
from ..game.state import F_CLAW, F_MR

# ---- planning table rows (float64 [N_PLAN_ROWS, PLAN_WIDTH]) ----------------------------------
PLAN_P_HIT = 0  # P(hit) by target number 0..PLAN_WIDTH-1 (exact 2d6 with auto miss/hit)
PLAN_E_DMG = 1  # mean damage by weapon step 0..4
PLAN_CC_WIN = 2  # P(win close combat) by modifier difference + PLAN_CC_ZERO
PLAN_CC_LOSS = 3  # P(lose close combat) by modifier difference + PLAN_CC_ZERO
PLAN_P_HIT1 = 4  # P(hit) of target number k - 1 at k (k = 0: any number below 0, P = 0)
PLAN_WEIGHTS = 5  # the weighted planner's weights (hunter-4), indexed by the W_* below
PLAN_BREADTH = 6  # by maneuverability rating: a weighted planner's breadth multiplier
N_PLAN_ROWS = 7
PLAN_WIDTH = 48
PLAN_CC_ZERO = 24


# ---- the weighted planner's weights (row PLAN_WEIGHTS) ----------------------------------------
# hunter-4 scores an end state with the same terms as hunter-3, each weighed by a named weight
# read from the planning table, so the weights are data (fitted, see HUNTER_4_WEIGHTS) and the
# code that scores stays one. The earlier planners read their weights from constants in
# :mod:`.planner` and ignore this row.
#: the breath damage I expect to deal to an enemy that has already moved this turn ...
W_OFF_MOVED = 0
#: ... and to one that has not (it will move before breath combat, likely out of the shot)
W_OFF_UNMOVED = 1
#: the breath damage an enemy that has moved can deal to me from where it stands ...
W_DNG_MOVED = 2
#: ... and one that has not moved yet (it will move first, likely into a better shot)
W_DNG_UNMOVED = 3
#: points per hex of room ahead lacking (of ROOM_AHEAD) when an end state faces a board edge
W_EDGE = 4
#: points per hex of distance to the nearest enemy
W_PULL = 5
#: the weight of the expected tooth-and-claw exchange of an engagement ...
W_ENGAGE = 6
#: ... and the points an engagement is worth beyond it per unit of P(win) - P(lose): the
#: winner turns to face any hexside beside a loser that faces a random way (p.13), the
#: position it starts the next turn from, which the exchange does not count
W_ENGAGE_BONUS = 7
#: hunter-5: the most its speed gains on last turn's when it flies as fast as it may (above
#: any allowance: it takes all the rules give; 3 plays as if the allowance were not in force)
W_GAIN_MAX = 8
#: hunter-5's Wizard: what each next-turn spell landing is worth, in damage points (the bot
#: policy prices the other spells by this turn's effect, :mod:`.spells`): Slow on an enemy,
#: Lethargy on an enemy, Quicken on its own dragon, Vigor on its own dragon (p.25)
W_SLOW = 9
W_LETHARGY = 10
W_QUICKEN = 11
W_VIGOR = 12
#: hunter-5: 1 to move early at every chance (p.15), 0 never; the released table says 0:
#: moving early gives the enemy the engagement and the last look (``benchmarks/early_moves.py``,
#: against hunter-4 over the 12 mirrors under the advanced rules: 63% never early, 10% early at
#: every chance); a benchmark sets 1 to measure it
W_EARLY = 13
N_WEIGHTS = 14

#: hunter-4's released weights (index: W_*). Fitted to agree with the look-ahead bot
#: (search-1) across the 66 ready-made pairings: ``benchmarks/fit_hunter.py`` (the grid and
#: the reference) and docs/bots.md's "hunter-4" paragraph. A released bot's weights never
#: change; a new fit is a new version.
HUNTER_4_WEIGHTS = (1.0, 0.5, 1.0, 0.6, 0.4, 0.05, 1.0, 10.0)
#: hunter-5's ``W_GAIN_MAX`` (its other weights are hunter-4's): more than any speed range
HUNTER_5_GAIN_MAX = 99.0
#: hunter-5's W_SLOW, W_LETHARGY, W_QUICKEN, W_VIGOR (``benchmarks/spell_values.py``,
#: ``results/spell-values.txt``): Slow or Lethargy on an enemy, or Quicken or Vigor on its own
#: dragon, cast in place of what the Wizard casts now (a value above a Fireball's, 8) costs
#: its side 2 to 4 points of win share over the Wizard pairings; Slow and Lethargy valued
#: below it are never cast (an enemy out of a Fireball's reach is out of theirs); Quicken and
#: Vigor valued at 2 are cast when nothing else is worth a point, about a third of a game,
#: and change nothing measurable
HUNTER_5_NEXT_TURN_SPELLS = (0.0, 0.0, 2.0, 2.0)

#: the mean of one d6 (a close-combat winner's own damage is ``self_dice`` of them)
MEAN_D6 = 3.5


@game_fn(inline="always")
def p_hit(plan, tn):
    """P(hit) of target number ``tn`` (0 when ``tn`` < 0: no shot)."""
    if tn < 0:
        return 0.0
    if tn >= PLAN_WIDTH:
        tn = PLAN_WIDTH - 1
    return plan[PLAN_P_HIT, tn]


@game_fn(inline="always")
def cc_odds(ds, i, j, plan, cc_by_mr):
    """(P(``i`` wins), P(``i`` loses)) a close combat with ``j``: the exact odds by the
    difference of their modifiers."""
    diff = cc_by_mr[ds[i, F_MR]] - cc_by_mr[ds[j, F_MR]] + PLAN_CC_ZERO
    if diff < 0:
        diff = 0
    if diff >= PLAN_WIDTH:
        diff = PLAN_WIDTH - 1
    return plan[PLAN_CC_WIN, diff], plan[PLAN_CC_LOSS, diff]


@game_fn(inline="always")
def engage_value(ds, i, j, plan, cc_by_mr, self_dice):
    """Expected damage balance of ``i`` engaging ``j``: P(win) E[i's claws] - P(lose) E[j's
    claws] - P(win) E[self damage] (exact close-combat odds)."""
    pw, pl = cc_odds(ds, i, j, plan, cc_by_mr)
    return (
        pw * plan[PLAN_E_DMG, ds[i, F_CLAW]]
        - pl * plan[PLAN_E_DMG, ds[j, F_CLAW]]
        - pw * MEAN_D6 * self_dice
    )


@game_fn(inline="always")
def engage_weighted(ds, i, j, plan, cc_by_mr, self_dice):
    """A weighted planner's value of ``i`` engaging ``j``: ``W_ENGAGE`` times
    :func:`engage_value` plus ``W_ENGAGE_BONUS`` times P(win) - P(lose) (the weights row)."""
    pw, pl = cc_odds(ds, i, j, plan, cc_by_mr)
    return plan[PLAN_WEIGHTS, W_ENGAGE] * engage_value(ds, i, j, plan, cc_by_mr, self_dice) + plan[
        PLAN_WEIGHTS, W_ENGAGE_BONUS
    ] * (pw - pl)


@game_fn(inline="always")
def room_ahead(q, r, f, width, depth):
    """Hexes straight ahead that stay on the board (0..4)."""
    dq = (1, 1, 0, -1, -1, 0)[f]
    dr = (0, -1, -1, 0, 1, 1)[f]
    n = 0
    for k in range(1, 5):
        qq = q + k * dq
        rr = r + k * dr
        if rr < 0 or rr >= depth:
            break
        col = qq + (rr - (rr & 1)) // 2
        if col < 0 or col >= width:
            break
        n = k
    return n


#: Layout of the planning geometry table (int64, built once per kernel call by
#: :func:`geometry_table`): a header, then per offset within breath range and facing the
#: packed shot ``(arc modifier + range modifier + SHOT_BIAS) * 4 + area`` (or ``OUT_SHOT``),
#: the hex distance per offset, and the room ahead per board hex and facing.
G_R = 0  # max breath range R (offsets -R..R on both axes)
G_SIDE = 1  # 2R + 1
G_SHOT = 2  # where the packed shots start
G_DIST = 3  # where the distances start
G_ROOM = 4  # where the room-ahead values start
G_WIDTH = 5
G_HEAD = 8
SHOT_BIAS = 1 << 20
#: packed shot of an offset out of the arc (or range): area bits 3 and a modifier so low that
#: any target number built on it reads P(hit) = 0
OUT_SHOT = (SHOT_BIAS // 2) * 4 + 3
#: per facing f (4 bits each), ``3 dq + dr + 4`` of the hex directly ahead ``(dq, dr)``: an
#: enemy at distance 1 and offset ``(dq, dr)`` is ahead of facing f when the codes match
ADJ_CODES = sum((3 * int(DQ[f]) + int(DR[f]) + 4) << (4 * f) for f in range(6))


@njit(cache=True)
def geometry_table(arc, range_mod, max_range, width, depth):
    """The planners' geometry, precomputed: for every offset ``(dq, dr)`` with
    ``|dq|, |dr| <= max_range`` and every facing, the arc area of the offset and the to-hit
    modifiers it brings (arc + range), so scoring an end state is table lookups, not angle
    arithmetic; and the room ahead (:func:`room_ahead`) of every board hex and facing.
    The values are exactly those :func:`~dragonsim.lords.game.mechanics.target_number` and
    :func:`room_ahead` compute."""
    rr_ = max_range
    o = np.int64(0)  # the origin, as int64: arc_area is then compiled once, not for literals
    side = 2 * rr_ + 1
    nsq = side * side
    shot = G_HEAD
    dist_o = shot + 6 * nsq
    room_o = dist_o + nsq
    g = np.zeros(room_o + 6 * width * depth, np.int64)
    g[G_R] = rr_
    g[G_SIDE] = side
    g[G_SHOT] = shot
    g[G_DIST] = dist_o
    g[G_ROOM] = room_o
    g[G_WIDTH] = width
    for a in range(side):
        for b in range(side):
            dq = a - rr_
            dr = b - rr_
            idx = a * side + b
            d = distance(o, o, dq, dr)
            g[dist_o + idx] = d
            for f in range(6):
                v = OUT_SHOT
                if 1 <= d <= rr_:
                    area = arc_area(o, o, f, dq, dr, arc[3], arc[4], arc[5])
                    if area >= 0:
                        v = (arc[area] + range_mod[d] + SHOT_BIAS) * 4 + area
                g[shot + 6 * idx + f] = v
    for r in range(depth):
        for col in range(width):
            q = col - (r - (r & 1)) // 2
            for f in range(6):
                g[room_o + 6 * (r * width + col) + f] = room_ahead(q, r, f, width, depth)
    return g


def plan_table(rules_tables) -> np.ndarray:
    """The float64 planning table from the exact odds (:mod:`dragonsim.lords.game.odds`): P(hit)
    by target number, mean damage by weapon step, P(win)/P(lose) of a close combat by the
    difference of the modifiers."""
    from ..game import odds
    from ..game.tables import S_AUTO_HIT, S_AUTO_MISS

    s = rules_tables.scalars
    auto_miss = int(s[S_AUTO_MISS])
    auto_hit = int(s[S_AUTO_HIT])
    plan = np.zeros((N_PLAN_ROWS, PLAN_WIDTH), dtype=np.float64)
    for tn in range(PLAN_WIDTH):
        plan[PLAN_P_HIT, tn] = float(odds.p_to_hit(tn, auto_miss=auto_miss, auto_hit=auto_hit))
    # the same shifted by one, so a planner clamps a target number into 0..PLAN_WIDTH-1 with
    # no branch: below 0 (or out of arc) reads P = 0, and beyond the table P(hit) no longer
    # changes (only the automatic hit is left above 12)
    plan[PLAN_P_HIT1, 1:] = plan[PLAN_P_HIT, :-1]
    for step in range(rules_tables.weapon.shape[0]):
        n, plus = (int(x) for x in rules_tables.weapon[step])
        plan[PLAN_E_DMG, step] = float(odds.expected(odds.dice_sum(n, plus)))
    two = odds.two_d6()
    for d in range(PLAN_WIDTH):
        diff = d - PLAN_CC_ZERO
        win = sum(px * py for x, px in two.items() for y, py in two.items() if x + diff > y)
        loss = sum(px * py for x, px in two.items() for y, py in two.items() if x + diff < y)
        plan[PLAN_CC_WIN, d] = float(win)
        plan[PLAN_CC_LOSS, d] = float(loss)
    plan[PLAN_WEIGHTS, : len(HUNTER_4_WEIGHTS)] = HUNTER_4_WEIGHTS
    plan[PLAN_WEIGHTS, W_GAIN_MAX] = HUNTER_5_GAIN_MAX
    plan[PLAN_WEIGHTS, W_SLOW : W_VIGOR + 1] = HUNTER_5_NEXT_TURN_SPELLS
    # a weighted planner scores `samples` end states times the points a 60-degree turn costs
    # (at least 1): with 2-point turns (ratings G-I) the good end states are rarer, and 16
    # miss them (Reaper against Fiercival, hunter-3, 4,000 games: Fiercival's breadth 16,
    # 32, 64, 128 gives Reaper 73.8, 68.1, 61.6, 61.3%); the agile ratings gain nothing
    tc = rules_tables.turn_cost
    for mr in range(min(tc.shape[0], PLAN_WIDTH)):
        plan[PLAN_BREADTH, mr] = max(1, int(tc[mr, 1]))
    return plan


guard_caches(sys.modules[__name__], [hexes, state, _kernels])
