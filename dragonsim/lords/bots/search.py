"""The look-ahead bots, ``search`` (search-1 and search-2, the reference): a move judged by the
games that follow it.

When a ``search`` dragon comes up in the movement phase, it gathers candidate moves from the
planners it can imitate -- three independent hunter samples (each a different scattered
sample of end states), the brawler's closing move, the sniper's stand-off move and two
uniformly random legal moves -- each once, and each move that leaves an enemy directly in
front twice: with and without the engagement (p.9). Then it plays every candidate forward: the
rest of this turn and :data:`HORIZON` more turns of the real game loop (the same phase
functions as every simulated game, :func:`~dragonsim.lords.engine.finish_turn`), every dragon
played by the hunter (:data:`~dragonsim.lords.bots.P_ROLLOUT`), :data:`ROLLOUTS` times, and
keeps the candidate whose rollouts end best for its side on average (:func:`position_value`).

Every candidate is played from the same :data:`ROLLOUTS` pairs of rollout streams (common
random numbers: the k-th rollout of each candidate rolls the same dice in the same order as
long as the games agree), so the comparison between two candidates is much less noisy than
either value; the streams come from the game's own policy stream, so a search game is
reproducible and independent of threads and chunking like every game. Ties between candidates
whose rollouts score exactly alike are broken uniformly from the policy stream (fair seats).

Its other decisions -- the speed it records, its breath target, a corner's side, a close-combat
winner's facing -- are hunter-3's (``KINDS``/``FAIR`` in :mod:`dragonsim.lords.bots`).

The rollouts model every dragon, the opponent included, as the hunter: the search answers
"which of these moves is best if everyone then plays as hunter-3 does", a one-step policy
improvement over the hunter (Tesauro & Galperin 1996; Bertsekas, *Rollout algorithms*). A game
with a ``search`` dragon compiles the game loop once more with the look-ahead in it
(:func:`~dragonsim.lords.engine.movement`'s ``srch``); games without one never compile it.

search-2 (``--policy reference``) is the same look-ahead over the default: its candidates
are hunter-5's samples (:data:`GENERATORS_2`) with the brawler's, the sniper's and two random
moves, each with and without its engagement, and, where the landing rule is in force
(p.17) and the dragon can land this move, landing (:data:`LAND`); its rollouts play every
dragon as hunter-5 (:data:`~dragonsim.lords.bots.P_ROLLOUT_2`), so a landing is judged with
hunter-5's ground play after it (it takes off at the rule of thumb's speed). Its other
decisions -- the speed (as fast as it may), targets, rider shots, spells, tactics -- are
hunter-5's. Why a rollout over the default rather than a tree search: the move is the
decision where a planner's one-turn scoring is most often wrong (search-1 taught hunter-4
its engagements and breadth that way), a rollout improves on the bot it rolls out with
whatever that bot does (the policy-improvement property), and a handful of candidates times
8 rollouts of 3 turns keeps it fast enough to play the thousands of games a verdict needs.
What it does not search: the speed recorded, moving early (p.15) and the spell, each of
them decided in its own phase before the move; a rollout at those phases is the next step.
"""

from __future__ import annotations

import sys
from typing import NamedTuple

import numpy as np

from ... import _kernels
from ... import random as _random
from ..._kernels import game_fn, guard_caches
from ..game import mechanics, state, tables
from ..game.mechanics import apply_move, can_engage, draw_below
from ..game.state import (
    F_ALIVE,
    F_ALT,
    F_DP,
    F_DP0,
    F_F,
    F_MOVED,
    F_POLICY,
    F_Q,
    F_R,
    F_SPEED,
    F_TEAM,
    F_TURNED,
    MAXD,
    N_COUNTERS,
    N_PARTS,
    NF,
    OPT_LANDING,
)
from ..game.tables import S_LANDING_COST
from . import P_BRAWLER_2, P_HUNTER_3, P_HUNTER_5, P_RANDOM, P_SEARCH_2, P_SNIPER_2
from . import dispatch as _dispatch
from . import planner as _planner
from . import random as _random_bot
from .dispatch import choose_move
from .planner import plan_engage
from .random import pick_landing

#: the planners whose moves are candidates, in the order they are asked (the policy stream
#: draws in this order): three hunter samples, the brawler, the sniper, two random moves
GENERATORS = (P_HUNTER_3, P_HUNTER_3, P_HUNTER_3, P_BRAWLER_2, P_SNIPER_2, P_RANDOM, P_RANDOM)
#: search-2's: hunter-5's samples in the hunter's place (the first is the reference)
GENERATORS_2 = (P_HUNTER_5, P_HUNTER_5, P_HUNTER_5, P_BRAWLER_2, P_SNIPER_2, P_RANDOM, P_RANDOM)
#: by version (row 0 search-1, row 1 search-2)
GENS = np.array([GENERATORS, GENERATORS_2], dtype=np.int64)
#: a candidate row's entry meaning "land" (p.17): search-2 also judges landing, where the
#: landing rule is in force and the dragon can land this move; its flight is the one the
#: landing move draws (the bots' ``choose_landing``)
LAND = -2
#: the most candidates (every generator's move, with and without an engagement, and landing)
MAX_CANDIDATES = 2 * len(GENERATORS) + 1
#: rollouts per candidate (the same streams for every candidate)
ROLLOUTS = 8
#: full turns played after the rest of this one before a rollout is scored
HORIZON = 2
#: a candidate replaces the hunter's own choice only when its rollouts beat the hunter's by
#: more than this many standard errors of the paired differences (rollout by rollout, on the
#: same streams): the best of a dozen noisy means is biased upwards (the winner's curse), and
#: this is what keeps the search from trading a good move for a lucky one
SWITCH_Z = 1.0
#: ... and a landing (search-2) only by more than this many: a landed dragon's next turns
#: (a ground move or a take-off at the rule of thumb's speed) cost more than the rollouts'
#: horizon shows. At SWITCH_Z the reference landed 1.1 times a game and scored 1.5 to 2
#: points less against the default than without landings (``benchmarks/reference_strength.py``)
LAND_Z = 2.5
#: the rollout bot's breadth (end states scored per move), whatever the game's: a search's own
#: breadth (``search:32``) widens its candidate hunter samples only. (8 plays about 15% faster
#: and is measurably weaker: Tankerous's mirror against the hunter 0.66 instead of 0.69.)
ROLLOUT_BREADTH = 16
#: how much a side's health (its dragons' weakest parts, 0..1) counts in an unfinished
#: rollout's value: kept below 1/2 so that no unfinished game is worth a win or a loss
HEALTH_WEIGHT = 0.45


class SearchWork(NamedTuple):
    """The look-ahead's scratch, one per thread (allocated in Python: the game allocates
    nothing)."""

    rw: tuple  # the rollouts' game scratch (the engine's ``Work``: state rows, order, streams)
    ds0: np.ndarray  # int64 [MAXD, NF]: the position being judged, kept between rollouts
    cand: np.ndarray  # int64 [MAX_CANDIDATES, 3]: entry, altitude change, engaged (-1 none)
    val: np.ndarray  # float64 [MAX_CANDIDATES, ROLLOUTS]: each candidate's rollout values
    cnt: np.ndarray  # int64 [N_COUNTERS]: the rollouts' counters (thrown away)


def new_search_work(rw) -> SearchWork:
    """Fresh :class:`SearchWork` for one thread of games with a ``search`` dragon, its
    rollouts played in the game scratch ``rw`` (the engine's ``new_work()``)."""
    return SearchWork(
        rw,
        np.zeros((MAXD, NF), np.int64),
        np.zeros((MAX_CANDIDATES, 3), np.int64),
        np.zeros((MAX_CANDIDATES, ROLLOUTS), np.float64),
        np.zeros(N_COUNTERS, np.int64),
    )


@game_fn
def health(ds, i):
    """Dragon ``i``'s weakest part as a fraction of its starting damage points (a dragon is
    removed when any part reaches 0, p.12); 0 once it is out of play."""
    if ds[i, F_ALIVE] == 0:
        return 0.0
    h = 1.0
    for p in range(N_PARTS):
        f = ds[i, F_DP + p] / ds[i, F_DP0 + p]
        if f < h:
            h = f
    return h


@game_fn
def position_value(ds, nd, team, turn, turn_limit, nteams, last):
    """What a rollout's end is worth to ``team``, ``nteams`` teams in play (``last`` one of
    them): 1 a win, 0 a loss, 1/2 a draw (every dragon out, or the turn limit reached), and for
    a game still going 1/2 plus :data:`HEALTH_WEIGHT` times the side's mean health less its
    enemies' (:func:`health`)."""
    if nteams <= 1:
        if last < 0:
            return 0.5
        return 1.0 if last == team else 0.0
    if turn >= turn_limit:
        return 0.5
    mine = 0.0
    theirs = 0.0
    nm = 0
    nt = 0
    for j in range(nd):
        if ds[j, F_TEAM] == team:
            mine += health(ds, j)
            nm += 1
        else:
            theirs += health(ds, j)
            nt += 1
    return 0.5 + HEALTH_WEIGHT * (mine / nm - theirs / nt)


@game_fn
def _add(cand, nc, e, dalt, j):
    """Append candidate ``(e, dalt, j)`` unless it is there already; the new count."""
    for c in range(nc):
        if cand[c, 0] == e and cand[c, 1] == dalt and cand[c, 2] == j:
            return nc
    cand[nc, 0] = e
    cand[nc, 1] = dalt
    cand[nc, 2] = j
    return nc + 1


@game_fn
def gather(ds, nd, k, run, w, srch):
    """The candidate moves of the ``search`` dragon at initiative slot ``k`` into
    ``srch.cand`` (rows ``(entry, dalt, engaged)``: a move-table entry, the altitude change
    and the enemy it engages after the move, -1 none); returns how many. The first is the
    hunter's own move and engagement decision, the reference the others must beat. None
    when no move stays on the board (the dragon flies off)."""
    opt, mv = run.opt, run.mv
    i = w.order[k]
    cand = srch.cand
    v = 1 if ds[i, F_POLICY] == P_SEARCH_2 else 0
    nc = 0
    for g in range(GENS.shape[1]):
        pid = GENS[v, g]
        e, dalt = choose_move(pid, ds, i, ds[i, F_SPEED], run, w)
        if e < 0:
            continue  # no legal move at all: every generator says so
        # the engagement this move would allow (at most one enemy is directly in front); the
        # first candidate is the hunter's own move and engagement decision, the reference
        q, r, f, alt = ds[i, F_Q], ds[i, F_R], ds[i, F_F], ds[i, F_ALT]
        turned = ds[i, F_TURNED]  # (turning between move phases, p.16)
        apply_move(ds, i, e, dalt, mv.rq, mv.rr, mv.f, mv.bk)
        jj = -1
        for j in range(nd):
            if can_engage(ds, i, j, opt):
                jj = j
                break
        first = -1
        if nc == 0 and jj >= 0:
            first = plan_engage(GENS[v, 0], ds, i, jj, run)
        ds[i, F_Q], ds[i, F_R], ds[i, F_F], ds[i, F_ALT] = q, r, f, alt
        ds[i, F_MOVED] = 0
        ds[i, F_TURNED] = turned
        nc = _add(cand, nc, e, dalt, first)
        nc = _add(cand, nc, e, dalt, jj if first < 0 else -1)
    if v == 1 and nc > 0 and opt[OPT_LANDING] == 1 and ds[i, F_ALT] > 0:
        speed = ds[i, F_SPEED] - run.tb.scalars[S_LANDING_COST]
        if speed >= 0 and pick_landing(GENS[v, 0], ds, i, speed, run, w)[0] >= 0:
            nc = _add(cand, nc, LAND, 0, -1)
    return nc


@game_fn
def pick(srch, nc, pst):
    """The candidate the look-ahead plays, ``(entry, dalt, engaged)``, from its rollout values
    ``srch.val[:nc]`` (row 0 the reference, the hunter's own choice): the best mean paired
    gain over the reference, if more than :data:`SWITCH_Z` standard errors of the paired
    differences; ties broken uniformly from the policy stream ``pst``."""
    cand = srch.cand
    val = srch.val
    best = 0.0  # the best mean paired gain over the reference so far (0: the reference)
    bc = 0
    ties = 1
    for c in range(1, nc):
        s1 = 0.0
        s2 = 0.0
        for r in range(ROLLOUTS):
            d = val[c, r] - val[0, r]
            s1 += d
            s2 += d * d
        m = s1 / ROLLOUTS
        var = (s2 - s1 * m) / (ROLLOUTS - 1)
        se = np.sqrt(var / ROLLOUTS) if var > 0.0 else 0.0
        z = LAND_Z if cand[c, 0] == LAND else SWITCH_Z
        if m <= z * se:
            continue  # not shown better than the hunter's choice
        if m > best:
            best = m
            bc = c
            ties = 1
        elif m == best:
            ties += 1
            if draw_below(pst, ties) == 0:
                bc = c
    return cand[bc, 0], cand[bc, 1], cand[bc, 2]


_names = sys.modules[__package__]
guard_caches(
    sys.modules[__name__],
    [_names, _dispatch, _planner, _random_bot, mechanics, state, tables, _random, _kernels],
)
