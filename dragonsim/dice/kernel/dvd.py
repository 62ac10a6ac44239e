"""Dragon vs dragon: two or more teams of dragons of different colours attack each other,
round after round ('Dragon vs. Dragon').

:func:`dvd_kernel` runs chunks of games in ``prange``, each owning one row of a 2-D counter
array; game ``g`` draws from the stream ``(seed, g, P_DRAGON)``. One dragon against one (the
usual case) plays in straight lines (:func:`_duel_games`), any other fight in the general
team loop (:func:`_dvd_games`); both roll the same dice in the same order.
"""

from __future__ import annotations

import sys
from typing import NamedTuple

import numpy as np
from numba import njit, prange

from ... import _kernels, random
from ..._kernels import chunk_bounds, game_fn, guard_caches, n_chunks
from ...random import below_s, stream_seed
from .. import data
from ..data import D_BELLY, D_BREATH, D_CLAW, D_JAWS, D_TAIL, D_WING
from . import layout
from .layout import (
    O_CARRY,
    O_CLAW,
    O_DHEALTH,
    O_DSAVES,
    O_DVD_FOCUS,
    O_JAWS,
    O_NEGATE,
    O_TAIL,
    P_DRAGON,
    V_ALL_GONE,
    V_DICE,
    V_GAMES,
    V_MULTI_ANY_SLAIN,
    V_ROUNDS,
    V_ROUNDS_SQ,
    V_TIMEOUT,
    VHEAD,
    VT,
    VT_ANY_SLAIN,
    VT_FLEW,
    VT_SLAIN,
    VT_WINS,
)

_U12 = np.uint64(12)


class DvdRules(NamedTuple):
    """One chunk's rule values (from ``opts``)."""

    tail_d: int
    negate: int  # extra rounds a breath negates the target's saves
    dhealth: int
    dsaves: int
    carry: bool
    focus: bool  # a team targets an enemy whose saves a breath negated first
    never: int  # a neg_until that no round (1..turns) reaches (runtime value: no memset)
    turns: int
    lay_rounds: int  # counter slot of the rounds histogram


@game_fn(inline="always")
def _roll_past_tails(s, ft, j):
    """Dragon ``j``'s die on stream state ``s``, rolled again after every tail ("roll the
    dragon die again until something other than the tail is rolled"): ``(state, tails,
    packed face of the last roll)``, ``ft`` as in :func:`_duel_games`."""
    t = 0
    s, i = below_s(s, _U12)
    v = ft[j, i]
    while v & 1:
        t += 1
        s, i = below_s(s, _U12)
        v = ft[j, i]
    return s, t, v


@njit(cache=True)
def _duel_games(lo, hi, seed, dfaces, side, dmg_of, r, row):
    """:func:`_dvd_games` for one dragon against one (the usual case), in straight lines.

    Both dragons are in the fight at the start of every round (the game ends in the round
    one of them leaves), each targets the other, and dragon 0 rolls before dragon 1: the
    same dice in the same order as the general loop, so the counters are the same. A face
    is one packed word (damage << 8 | tail, breath, belly, wing bits), so a round's outcome
    is arithmetic, not branches on icons. A game ends with each dragon staying (0), slain
    (1) or flown (2): counted in a 3x3 table and a rounds histogram, turned into the
    counters once per chunk."""
    ft = np.zeros((2, 12), np.int64)
    for j in range(2):
        for i in range(12):
            f = dfaces[j, i]
            ft[j, i] = (
                (dmg_of[f] << 8)
                | (1 if f == D_TAIL else 0)
                | (2 if f == D_BREATH else 0)
                | (4 if f == D_BELLY else 0)
                | (8 if f == D_WING else 0)
            )
    tail_d = r.tail_d
    negate = r.negate
    dhealth = r.dhealth
    dsaves = r.dsaves
    never = r.never
    turns = r.turns
    oc = np.zeros(9, np.int64)  # games by outcome (dragon 0's + 3 * dragon 1's)
    rh = np.zeros(turns + 1, np.int64)  # games by rounds
    cm = -1 if r.carry else 0  # damage carries over: carried += taken & cm
    dice = 0
    for g in range(lo, hi):
        s = stream_seed(seed, g, P_DRAGON)
        neg0 = never  # the last round a breath negates dragon 0's saves
        neg1 = never
        c0 = 0  # damage carried by dragon 0
        c1 = 0
        rounds = 0
        out = 0
        for rnd in range(1, turns + 1):
            rounds = rnd
            s, t0, v0 = _roll_past_tails(s, ft, 0)
            s, t1, v1 = _roll_past_tails(s, ft, 1)
            dice += t0 + t1 + 2
            o0 = t0 * tail_d + (v0 >> 8)  # damage dragon 0 deals (to dragon 1)
            o1 = t1 * tail_d + (v1 >> 8)
            nb = rnd + negate
            m0 = -((v1 >> 1) & 1 & (neg0 < nb))  # all ones: dragon 1's breath negates 0's saves
            m1 = -((v0 >> 1) & 1 & (neg1 < nb))
            neg0 = (nb & m0) | (neg0 & ~m0)
            neg1 = (nb & m1) | (neg1 & ~m1)
            sv0 = dsaves & ~(-(((v0 >> 2) & 1) | (neg0 >= rnd)))
            sv1 = dsaves & ~(-(((v1 >> 2) & 1) | (neg1 >= rnd)))
            sl0 = np.int64(o1 + c0 >= dhealth + sv0)
            sl1 = np.int64(o0 + c1 >= dhealth + sv1)
            c0 += o1 & cm
            c1 += o0 & cm
            out = sl0 + ((v0 >> 2) & 2 & (sl0 - 1)) + 3 * (sl1 + ((v1 >> 2) & 2 & (sl1 - 1)))
            if out != 0:
                break
        rh[rounds] += 1
        oc[out] += 1
    games = 0
    rounds_sum = 0
    rounds_sq = 0
    for rnd in range(turns + 1):
        games += rh[rnd]
        rounds_sum += rh[rnd] * rnd
        rounds_sq += rh[rnd] * rnd * rnd
        row[r.lay_rounds + rnd] += rh[rnd]
    row[V_GAMES] += games
    row[V_ALL_GONE] += oc[4] + oc[5] + oc[7] + oc[8]
    row[V_TIMEOUT] += oc[0]
    row[V_ROUNDS] += rounds_sum
    row[V_ROUNDS_SQ] += rounds_sq
    row[V_DICE] += dice
    row[V_MULTI_ANY_SLAIN] += oc[4]
    slain0 = oc[1] + oc[4] + oc[7]
    slain1 = oc[3] + oc[4] + oc[5]
    row[VHEAD + VT * side[0] + VT_WINS] += oc[3] + oc[6]
    row[VHEAD + VT * side[0] + VT_SLAIN] += slain0
    row[VHEAD + VT * side[0] + VT_FLEW] += oc[2] + oc[5] + oc[8]
    row[VHEAD + VT * side[0] + VT_ANY_SLAIN] += slain0
    row[VHEAD + VT * side[1] + VT_WINS] += oc[1] + oc[2]
    row[VHEAD + VT * side[1] + VT_SLAIN] += slain1
    row[VHEAD + VT * side[1] + VT_FLEW] += oc[6] + oc[7] + oc[8]
    row[VHEAD + VT * side[1] + VT_ANY_SLAIN] += slain1


@njit(cache=True)
def _dvd_games(lo, hi, seed, dfaces, side, nteams, opts, turns, row):
    """Games ``lo..hi-1`` of :func:`dvd_kernel` (one chunk, one thread), counted into ``row``.

    Game ``g`` draws from the stream ``(seed, g, P_DRAGON)``, held in a local scalar. Teams
    still in the fight and teams that lost a dragon are bit masks, so nothing per team is
    reset per game or per round."""
    # private copies: reference counts of arrays shared by threads bounce between cores
    dfaces = dfaces.copy()
    side = side.copy()
    k = dfaces.shape[0]
    present = np.zeros(k, np.int64)
    fin = np.zeros(k, np.int64)  # this round's final icon, -1 if not in the fight
    dmg_out = np.zeros(k, np.int64)
    neg_until = np.zeros(k, np.int64)
    carried = np.zeros(k, np.int64)
    tgt = np.zeros(nteams, np.int64)
    dmg_of = np.zeros(8, np.int64)  # damage of a dragon's final icon
    dmg_of[D_CLAW] = opts[O_CLAW]
    dmg_of[D_JAWS] = opts[O_JAWS]
    rules = DvdRules(
        opts[O_TAIL],
        opts[O_NEGATE],
        opts[O_DHEALTH],
        opts[O_DSAVES],
        opts[O_CARRY] != 0,
        opts[O_DVD_FOCUS] != 0,
        1 - turns,
        turns,
        VHEAD + VT * nteams,
    )
    if k == 2 and nteams == 2 and side[0] != side[1]:
        _duel_games(lo, hi, seed, dfaces, side, dmg_of, rules, row)
        return
    tail_d = rules.tail_d
    negate = rules.negate
    dhealth = rules.dhealth
    dsaves = rules.dsaves
    carry = rules.carry
    focus = rules.focus
    never = rules.never
    lay_rounds = rules.lay_rounds
    for g in range(lo, hi):
        s_d = stream_seed(seed, g, P_DRAGON)
        for j in range(k):
            present[j] = 1
            neg_until[j] = never
        if carry:
            for j in range(k):
                carried[j] = 0
        rounds = 0
        n_d = 0
        in_fight = 0  # bit mask of the teams with a dragon left
        slain_teams = 0  # bit mask of the teams that lost a dragon to damage
        last = -1  # a team with a dragon left
        for r in range(1, turns + 1):
            rounds = r
            # each team's owners choose one target among the other colours (a dragon whose
            # saves a breath negated first), then all dragons roll simultaneously
            for i in range(nteams):
                tg = -1
                for j in range(k):
                    if (
                        present[j] != 0
                        and side[j] != i
                        and (tg < 0 or (focus and neg_until[j] >= r and neg_until[tg] < r))
                    ):
                        tg = j
                tgt[i] = tg
            for j in range(k):
                if present[j] == 0:
                    fin[j] = -1
                    continue
                tails = 0
                while True:
                    s_d, i = below_s(s_d, _U12)
                    f = dfaces[j, i]
                    if f != D_TAIL:
                        break
                    tails += 1
                n_d += tails + 1
                fin[j] = f
                dmg_out[j] = tails * tail_d + dmg_of[f]
            # each dragon takes the damage of the dragons that targeted it (a breath negates
            # its saves this round and the next `negate`), then is slain or flies away
            in_fight = 0
            for j in range(k):
                if fin[j] < 0:
                    continue
                d = carried[j] if carry else 0
                taken = 0
                for a in range(k):
                    if fin[a] >= 0 and tgt[side[a]] == j:
                        taken += dmg_out[a]
                        if fin[a] == D_BREATH and neg_until[j] < r + negate:
                            neg_until[j] = r + negate
                saves = dsaves
                if fin[j] == D_BELLY or neg_until[j] >= r:
                    saves = 0
                if taken + d >= dhealth + saves:
                    present[j] = 0
                    row[VHEAD + VT * side[j] + VT_SLAIN] += 1
                    slain_teams |= 1 << side[j]
                else:
                    if carry:
                        carried[j] += taken
                    if fin[j] == D_WING:
                        present[j] = 0
                        row[VHEAD + VT * side[j] + VT_FLEW] += 1
                    else:
                        in_fight |= 1 << side[j]
                        last = side[j]
            if in_fight & (in_fight - 1) == 0:  # one team or none left
                break
        row[V_GAMES] += 1
        if in_fight == 0:
            row[V_ALL_GONE] += 1
        elif in_fight & (in_fight - 1) == 0:
            row[VHEAD + VT * last + VT_WINS] += 1
        else:
            row[V_TIMEOUT] += 1
        row[V_ROUNDS] += rounds
        row[V_ROUNDS_SQ] += rounds * rounds
        row[V_DICE] += n_d
        row[lay_rounds + rounds] += 1
        if slain_teams != 0:
            for i in range(nteams):
                row[VHEAD + VT * i + VT_ANY_SLAIN] += (slain_teams >> i) & 1
            if slain_teams & (slain_teams - 1) != 0:
                row[V_MULTI_ANY_SLAIN] += 1


@njit(cache=True, parallel=True)
def dvd_kernel(start, stop, seed, dfaces, side, nteams, opts, turns):
    """Play games ``start..stop-1`` of dragons of different colours fighting each other.

    Parameters
    ----------
    dfaces : int64[k, 12]
        Icons of each dragon's die.
    side : int64[k]
        Team of each dragon, ``0..nteams-1`` (a team is one colour; same colours team up).
    nteams : int
        Number of teams (2..5).
    opts : int64[NOPT]
        Rule values (``O_CLAW``, ``O_JAWS``, ``O_TAIL``, ``O_DHEALTH``, ``O_DSAVES``,
        ``O_NEGATE``, ``O_CARRY``).
    turns : int
        Most rounds per game.

    Returns
    -------
    int64[dvd_size(nteams, turns)]
        Counters (``V_*``), ``VT`` counters per team (``VT_*``), a histogram of rounds.
    """
    n = stop - start
    size = VHEAD + VT * nteams + turns + 1
    nch = n_chunks(n)
    rows = np.zeros((nch, size), np.int64)
    for c in prange(nch):
        lo, hi = chunk_bounds(start, n, c, nch)
        row = np.zeros(size, np.int64)
        _dvd_games(lo, hi, seed, dfaces, side, nteams, opts, turns, row)
        for i in range(size):
            rows[c, i] = row[i]
    out = np.zeros(size, np.int64)
    for c in range(nch):
        for i in range(size):
            out[i] += rows[c, i]
    return out


guard_caches(sys.modules[__name__], [layout, random, _kernels, data])
