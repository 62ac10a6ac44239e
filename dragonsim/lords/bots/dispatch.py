"""One dispatcher per decision: the engine asks these, each branches on the bot family once.

A dragon's policy id (``F_POLICY``) picks its family through :data:`~dragonsim.lords.bots.
FAMILIES`; the family module (:mod:`.random`, :mod:`.planner`) makes the decision. numba
cannot call through a table of functions cheaply, so the table is this one branch per
decision, in one place. What the rules decide (which dragons may be engaged or breathed at)
is checked here, before any bot is asked.

The dispatchers are inlined into the engine's phases (``inline="always"``: they are a branch
and a call), so the bots' code is compiled into one library level fewer. The bots they call
take the run's records (``run``, ``w``) and are inlined in turn, by LLVM
(:func:`~dragonsim._kernels.inner_fn`): a call would pass every array of the records.

A scripted game (:mod:`dragonsim.lords.views.script`) passes its decisions where the policy stream
goes (``w.pst`` of more than one cell: a seeded stream is one); each dispatcher then asks
:mod:`.scripted` before any bot.
"""

from __future__ import annotations

import sys

from ... import _kernels
from ..._kernels import game_fn, guard_caches
from ..game import mechanics, movetables, state, tables
from ..game.mechanics import can_engage
from ..game.state import (
    F_ABLATE,
    F_ENG,
    F_RIDER,
    OPT_SPELL_POLICY,
    RIDER_WIZARD,
    SP_NEVER,
    SP_RANDOM,
)
from ..game.tables import (
    S_BASE_TO_HIT,
    S_BOARD_DEPTH,
    S_BOARD_WIDTH,
)
from . import FAMILIES, FAMILY_RANDOM, SKILLS
from . import plan as _plan
from . import planner as _planner
from . import random as _random_bot
from . import scripted as _scripted
from . import speeds as _speeds
from . import spells as _spells
from . import tactics as _tactics
from .plan import PLAN_WEIGHTS, W_EARLY
from .planner import (
    plan_engage,
    plan_facing,
    plan_ground_move,
    plan_move,
    plan_rider_target,
    plan_side,
    plan_target,
)
from .random import (
    pick_early,
    pick_engage,
    pick_facing,
    pick_ground_move,
    pick_ground_speed,
    pick_land,
    pick_landing,
    pick_move,
    pick_rider_target,
    pick_side,
    pick_speed,
    pick_target,
)
from .registry import ABLATE_CAST, ABLATE_ENGAGE, ABLATE_RIDER, ABLATE_TACTICS
from .scripted import (
    script_early,
    script_engage,
    script_facing,
    script_ground_move,
    script_ground_speed,
    script_land,
    script_move,
    script_rider_target,
    script_side,
    script_speed,
    script_spell,
    script_tactic,
    script_target,
)
from .speeds import plan_ground_speed, plan_speed_skilled
from .spells import pick_spell, plan_spell
from .tactics import pick_tactic, plan_tactic


@game_fn(inline="always")
def choose_speed(pid, ds, i, lo, hi, plan, pst):
    """The speed dragon ``i`` records this turn, ``lo <= speed <= hi``."""
    if pst.shape[0] > 1:
        return script_speed(ds, i, lo, hi, pst)
    if FAMILIES[pid] == FAMILY_RANDOM:
        return pick_speed(lo, hi, pst)
    return plan_speed_skilled(pid, ds, i, lo, hi, plan)


@game_fn(inline="always")
def choose_move(pid, ds, i, speed, run, w):
    """A move for dragon ``i`` flying exactly ``speed`` points (its recorded speed, or what is
    left after a take-off's leap): ``(entry, dalt)``, a move-table entry and the altitude
    change, or ``(-1, 0)`` when no move stays on the board and ends in an empty hex (the
    dragon must then leave the board). The movement phase and the look-ahead's candidate
    moves ask the same way; bot ``pid`` need not be the dragon's own."""
    if w.pst.shape[0] > 1:
        return script_move(ds, i, speed, run, w)
    if FAMILIES[pid] == FAMILY_RANDOM:
        return pick_move(pid, ds, i, speed, run, w)
    return plan_move(pid, ds, i, speed, run, w)


@game_fn(inline="always")
def choose_engage(pid, ds, i, run, w):
    """Whom dragon ``i`` engages after its move (-1: nobody). Only one dragon can be directly
    in front, so there is at most one candidate; the bot decides whether to engage it."""
    opt = run.opt
    if w.pst.shape[0] > 1:
        return script_engage(ds, i, opt, w.pst)
    j = -1
    for k in range(ds.shape[0]):
        if can_engage(ds, i, k, opt):
            j = k
            break
    if j < 0:
        return -1
    if FAMILIES[pid] == FAMILY_RANDOM:
        return pick_engage(j, w.pst)
    if ds[i, F_ABLATE] & ABLATE_ENGAGE:
        return -1
    return plan_engage(pid, ds, i, j, run)


# ---- the ground (advanced rules, p.17) ----------------------------------------------------------


@game_fn(inline="always")
def choose_ground_speed(pid, ds, i, lo, hi, width, depth, pst):
    """What dragon ``i`` on the ground records: 0 ("ground": it stays) or a take-off speed
    ``lo..hi`` ("at least 1 point more than the dragon's minimum speed and no higher than 7",
    p.17)."""
    if pst.shape[0] > 1:
        return script_ground_speed(ds, i, lo, hi, pst)
    if FAMILIES[pid] == FAMILY_RANDOM:
        return pick_ground_speed(ds, i, lo, hi, width, depth, pst)
    return plan_ground_speed(pid, ds, i, lo, hi, width, depth)


@game_fn(inline="always")
def choose_ground_move(pid, ds, i, reach, run, w):
    """Where dragon ``i`` on the ground moves: ``(q, r, facing)`` within ``reach`` hexes
    ("roll 1d6+3 ... it may turn any number of times at no cost", p.17)."""
    scal = run.tb.scalars
    width, depth = scal[S_BOARD_WIDTH], scal[S_BOARD_DEPTH]
    if w.pst.shape[0] > 1:
        return script_ground_move(ds, i, reach, width, depth, w.pst)
    if FAMILIES[pid] == FAMILY_RANDOM:
        return pick_ground_move(ds, i, reach, width, depth, w.pst)
    return plan_ground_move(pid, ds, i, reach, run, w)


@game_fn(inline="always")
def choose_landing(pid, ds, i, speed, run, w):
    """The flight of a landing move (p.17): ``(entry, dalt)`` of ``speed`` points (the
    recorded speed less the landing's), ending at Very Low; ``(-1, 0)`` when the bot finds
    none (it then flies its move). A script gives the flight's end."""
    if w.pst.shape[0] > 1:
        return script_move(ds, i, speed, run, w)
    return pick_landing(pid, ds, i, speed, run, w)


@game_fn(inline="always")
def choose_land(pid, ds, i, pst):
    """Does dragon ``i`` try to land this move (p.17)? The planners never do (see the rule
    ``lords.advanced.landing``)."""
    if pst.shape[0] > 1:
        return script_land(ds, i, pst)
    if FAMILIES[pid] == FAMILY_RANDOM:
        return pick_land(pst)
    return False


@game_fn(inline="always")
def choose_target(pid, ds, i, run, w):
    """The breath target dragon ``i`` records (-1: none). "Dragons engaged in close combat may
    not breathe on other dragons ... dragons not involved in close combat may not breathe on
    dragons that are engaged" (p.10); only targets in arc, in range and within the neck bend
    are offered."""
    if w.pst.shape[0] > 1:
        return script_target(ds, i, run, w)
    if ds[i, F_ENG] >= 0:
        return -1
    if FAMILIES[pid] == FAMILY_RANDOM:
        return pick_target(ds, i, run, w)
    return plan_target(pid, ds, i, run, w)


@game_fn(inline="always")
def choose_early(pid, ds, i, plan, pst):
    """Does dragon ``i``, not yet moved and later in the initiative order than the dragon due
    to move now, announce that it moves first ("Moving Earlier in the Phase", p.15)? It
    decides from what every player sees: which dragons have moved, never a roll not yet
    revealed (the initiative rolls may be kept secret, p.15). The planners never do: a later
    mover sees more of the board (in the default duel the dragon moving first wins 7.9
    points less often), and an engagement needs an enemy that has already moved (p.9). A
    planner with skills (hunter-5) moves early at every chance when the planning table's
    ``W_EARLY`` is 1 (0 as released: a benchmark's switch)."""
    if pst.shape[0] > 1:
        return script_early(ds, i, pst)
    if FAMILIES[pid] == FAMILY_RANDOM:
        return pick_early(pst)
    return SKILLS[pid] != 0 and plan[PLAN_WEIGHTS, W_EARLY] >= 1.0


@game_fn(inline="always")
def choose_rider_target(pid, ds, i, run, w):
    """The target dragon ``i``'s rider records in the Record Rider Actions phase (advanced
    rules, p.15; -1: none). Only an enemy in play within the rider's long range, not engaged
    with another dragon, is offered (p.18; :func:`~dragonsim.lords.game.mechanics.may_shoot_at`)."""
    opt, tb = run.opt, run.tb
    scal = tb.scalars
    base = scal[S_BASE_TO_HIT]
    if w.pst.shape[0] > 1:  # asked even without a shooter: a script's target is refused
        return script_rider_target(ds, i, base, tb.alt_mod, tb.rider_range, scal, opt, w.pst)
    if tb.rider_range[ds[i, F_RIDER], 1] <= 0:
        return -1  # no Javelin Thrower, Archer or Crossbow Shooter (or it was killed)
    if FAMILIES[pid] == FAMILY_RANDOM:
        return pick_rider_target(ds, i, base, tb.alt_mod, tb.rider_range, scal, opt, w.pst)
    if ds[i, F_ABLATE] & ABLATE_RIDER:
        return -1
    return plan_rider_target(pid, ds, i, run, w)


@game_fn(inline="always")
def choose_spell(ds, i, tb, range_mod, opt, plan, pst):
    """The spell dragon ``i``'s Wizard records in the Record Rider Actions phase ("Wizards must
    also record on their player's game log which spell they will cast", p.15), its target and
    argument: ``(spell, target, argument)``, ``(-1, -1, 0)`` for none. The run's spell policy
    (``OPT_SPELL_POLICY``, :mod:`.spells`) decides for every bot family alike."""
    if pst.shape[0] > 1:
        return script_spell(ds, i, tb, opt, pst)
    if ds[i, F_RIDER] != RIDER_WIZARD:
        return -1, -1, 0
    pol = opt[OPT_SPELL_POLICY]
    if pol == SP_NEVER or ds[i, F_ABLATE] & ABLATE_CAST:
        return -1, -1, 0
    if pol == SP_RANDOM:
        return pick_spell(ds, i, tb, opt, pst)
    return plan_spell(ds, i, tb, range_mod, opt, plan)


@game_fn(inline="always")
def choose_side(pid, ds, a, t, side1, side2, alloc, pst):
    """One of two direction-template sides (a line through a corner): the attacker ``a``
    chooses."""
    if pst.shape[0] > 1:
        return script_side(ds, a, t, side1, side2, pst)
    if FAMILIES[pid] == FAMILY_RANDOM:
        return pick_side(side1, side2, pst)
    return plan_side(pid, ds, t, side1, side2, alloc, pst)


@game_fn(inline="always")
def choose_facing(pid, ds, i, j, pst):
    """The facing a close-combat winner ``i`` turns to ("may then turn to face any hexside")."""
    if pst.shape[0] > 1:
        return script_facing(ds, i, j, pst)
    if FAMILIES[pid] == FAMILY_RANDOM:
        return pick_facing(pst)
    return plan_facing(ds, i, j)


@game_fn(inline="always")
def choose_tactic(pid, ds, i, j, attacker, run, w):
    """The close-combat tactic dragon ``i`` chooses against ``j`` (optional rules, p.22;
    ``attacker``: ``i`` engaged ``j``): one with uses left. Chosen secretly: it reads the uses
    of both, never the other's choice (both are asked before either is checked off)."""
    scal = run.tb.scalars
    if w.pst.shape[0] > 1:
        return script_tactic(ds, i, scal, w.pst)
    if FAMILIES[pid] == FAMILY_RANDOM or ds[i, F_ABLATE] & ABLATE_TACTICS:
        return pick_tactic(ds, i, scal, w.pst)
    return plan_tactic(ds, i, j, attacker, run, w)


_names = sys.modules[__package__]
guard_caches(
    sys.modules[__name__],
    [
        _names,
        _plan,
        _planner,
        _random_bot,
        _scripted,
        _speeds,
        _spells,
        _tactics,
        mechanics,
        movetables,
        state,
        tables,
        _kernels,
    ],
)
