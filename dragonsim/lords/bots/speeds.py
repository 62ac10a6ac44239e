"""The speed a planner records ("2. Record Speed", p.7; on the ground, the take-off's speed,
advanced rules p.17): :func:`plan_speed`, the rule of thumb of every planner, and for a version
with ``SKILL_SPEED`` (hunter-5) :func:`plan_speed_skilled`, the fastest it may record, the wings'
acceleration allowance (p.16) included."""

from __future__ import annotations

import sys

from ... import _kernels
from ..._kernels import game_fn, guard_caches
from ..game import hexes, mechanics, state, tables
from ..game.hexes import distance
from ..game.mechanics import is_enemy, may_take_off
from ..game.state import F_ABLATE, F_LAST, F_Q, F_R
from . import KINDS, P_BRAWLER, P_SNIPER, SKILL_SPEED, SKILLS
from . import plan as _plan
from . import planner as _planner
from .plan import PLAN_WEIGHTS, W_GAIN_MAX
from .planner import FAR

#: speeds: the hunter's cruising speed (the fastest speed that runs up no cool-down debt:
#: speed 10 or more must be paid back, p.7) ...
HUNTER_CRUISE_SPEED = 9
#: ... its speed when the nearest enemy is at most HUNTER_CLOSE hexes away (a tighter turn
#: circle for the same maneuverability) ...
HUNTER_CLOSE = 4
HUNTER_CLOSE_SPEED = 7
#: ... and beyond HUNTER_FAR hexes it flies as fast as it may, to close the distance
HUNTER_FAR = 12
#: brawler: the speed it records is the distance to the nearest enemy plus this (to reach it)
BRAWLER_SPEED_OVER_DISTANCE = 2
#: sniper: its speed (holds its range band)
SNIPER_SPEED = 8


@game_fn
def plan_speed(pid, ds, i, lo, hi):
    """The speed a planner records, ``lo <= speed <= hi``."""
    kind = KINDS[pid]
    near = FAR
    for j in range(ds.shape[0]):
        if is_enemy(ds, i, j):
            d = distance(ds[i, F_Q], ds[i, F_R], ds[j, F_Q], ds[j, F_R])
            if d < near:
                near = d
    if kind == P_BRAWLER:
        want = near + BRAWLER_SPEED_OVER_DISTANCE
    elif kind == P_SNIPER:
        want = SNIPER_SPEED
    else:
        # hunter: the safe speed 9 (no cool-down debt) unless the enemy is far away
        want = HUNTER_CRUISE_SPEED if near <= HUNTER_FAR else hi
        if near <= HUNTER_CLOSE:
            want = HUNTER_CLOSE_SPEED
    if want < lo:
        want = lo
    if want > hi:
        want = hi
    return want


@game_fn
def plan_speed_skilled(pid, ds, i, lo, hi, plan):
    """The speed a planner records, ``lo <= speed <= hi``: :func:`plan_speed`'s rule of thumb,
    or for a version with ``SKILL_SPEED`` (hunter-5), after the first turn, the fastest it
    may record, gaining at most ``W_GAIN_MAX`` on last turn's speed (never slower than the
    rule of thumb's). Where the wings' acceleration allowance (p.16) or Quicken (p.25) lets
    it gain more than 3 (p.7), it does.

    Why (``benchmarks/speed_skill.py``, hunter-5 against hunter-4 over the 12 mirror pairings,
    both seats): the rule of thumb slows to 7 within 4 hexes of the enemy, where a dragon
    that turns slowly is left behind, and cruises at 9 elsewhere. Never slowing to 7 wins
    65% of the games against it, flying as fast as allowed 66%; a look-ahead that scored its
    best move at three speeds and took the best (a faster one favoured) won 67% at three
    times the cost per turn, and was not released. Capping the gain at 3 under the
    allowance changes nothing measurable (its row "gain <= 3")."""
    want = plan_speed(pid, ds, i, lo, hi)
    last = ds[i, F_LAST]
    if SKILLS[pid] & ~ds[i, F_ABLATE] & SKILL_SPEED == 0 or last < 0:
        return want
    s = hi
    cap = last + int(plan[PLAN_WEIGHTS, W_GAIN_MAX])
    if s > cap:
        s = cap
    if s < want:
        s = want
    return s


@game_fn
def plan_ground_speed(pid, ds, i, lo, hi, width, depth):
    """What a planner on the ground records (advanced rules, p.17): a take-off speed
    ``lo..hi`` (the speed it would fly at, :func:`plan_speed`) when it can take off and the
    leap straight ahead stays on the board and ends in a free hex
    (:func:`~dragonsim.lords.game.mechanics.may_take_off`); otherwise 0, "ground" (it stays,
    turns and moves on the ground, :func:`~dragonsim.lords.bots.planner.plan_ground_move`, and
    takes off when it faces open sky). hunter-5 takes off at its rule-of-thumb speed too."""
    if lo > hi or not may_take_off(ds, i, width, depth):
        return 0
    return plan_speed(pid, ds, i, lo, hi)


guard_caches(
    sys.modules[__name__],
    [_plan, _planner, hexes, mechanics, state, tables, _kernels, sys.modules[__package__]],
)
