"""The planning bot family: ``hunter`` (hunter-2), ``brawler`` (brawler-1), ``sniper``
(sniper-1).

Bots never search move sequences: :mod:`dragonsim.lords.game.movetables` precomputes, per
maneuverability rating and movement budget, every end state of a legal move relative to its
start (offset, facing, hexes flown, and the bounding box of one legal path for the board-edge
check; a bot with ``EDGE_EXACT`` also tries the entry's other paths when that one leaves the
board). A planner visits those end states in a scattered order (a stride coprime to the table
size from a random start) and scores the first ``samples`` that are legal without an
altitude change, and half as many with one level towards the nearest enemy (the brawler: all
the way to its altitude); when none of those fits, it scans every altitude change in full, so
a dragon flies off the board only when no move stays on it. Scoring one end state is a few
integer operations and lookups in tables built once per kernel call
(:func:`~.plan.geometry_table`, the packed move records of ``MoveTables``), done for a batch of
end states at once in loops LLVM vectorises (stack arrays, :func:`dragonsim._llvm.stack_empty`).

The three share the sampling and the expected-damage terms and differ in how they weigh them
(the constants below); the scoring branch is the only place they differ in a move.
"""

from __future__ import annotations

import sys
from typing import NamedTuple

import numpy as np

from ... import _kernels, _llvm
from ... import random as _random
from ..._kernels import game_fn, guard_caches, inner_fn
from ..._llvm import prefetch, stack_empty
from ..game import hexes, mechanics, movetables, state, tables
from ..game.hexes import DQ, DR, distance, facing_toward, rotate
from ..game.mechanics import (
    crash_after_combat,
    draw_below,
    ground_fits,
    is_enemy,
    may_shoot_at,
    move_fits_as,
    move_row,
    other_path_fits,
    rider_target_number,
    standing,
    stuck_on_ground,
    takeoff_path,
    target_number,
)
from ..game.movetables import PK_ALT_EVEN, PK_BOX, PK_F_END, PK_H, PK_LM, PK_RQ, PK_RR, PK_SKIP
from ..game.state import (
    F_ALIVE,
    F_ALT,
    F_BREATH,
    F_DP,
    F_DP0,
    F_ENG,
    F_F,
    F_MOVED,
    F_MR,
    F_Q,
    F_R,
    F_RIDER,
    F_SAMPLES,
    F_TOHIT,
    N_PARTS,
)
from ..game.tables import (
    ALT_MOD_GROUND,
    S_ALTITUDE_LEVELS,
    S_BASE_TO_HIT,
    S_BOARD_DEPTH,
    S_BOARD_WIDTH,
    S_CC_SELF_DAMAGE_DICE,
    S_MAX_RANGE,
)
from . import EDGE_EXACT, FAIR, KINDS, P_BRAWLER, P_HUNTER, P_SNIPER, WEIGHTED
from . import plan as _plan
from .plan import (
    ADJ_CODES,
    G_ROOM,
    G_SHOT,
    G_SIDE,
    G_WIDTH,
    MEAN_D6,
    PLAN_BREADTH,
    PLAN_E_DMG,
    PLAN_P_HIT1,
    PLAN_WEIGHTS,
    PLAN_WIDTH,
    SHOT_BIAS,
    W_DNG_MOVED,
    W_DNG_UNMOVED,
    W_EDGE,
    W_OFF_MOVED,
    W_OFF_UNMOVED,
    W_PULL,
    engage_value,
    engage_weighted,
    p_hit,
)

#: end states a planner scores per batch (see :func:`plan_move`)
PLAN_BATCH = 32

# ---- the weights --------------------------------------------------------------------------------
# Scores are in expected damage points (P(hit) x mean damage of a breath weapon, from the exact
# odds); every other term is converted to points by one of these weights.

#: every planner: points a move loses per hex of room ahead it lacks (of ROOM_AHEAD) when it
#: ends facing a board edge (a dragon that must turn away next turn cannot line up a shot)
EDGE_WEIGHT = 0.4
#: room ahead beyond which a board edge no longer matters (hexes straight ahead)
ROOM_AHEAD = 4
#: every planner: an enemy that has not moved yet this turn will move before breath combat, so
#: the damage it threatens from where it stands now counts at this weight (1.0 once it has moved)
UNMOVED_THREAT_WEIGHT = 0.6
#: hunter: points per hex of distance to the nearest enemy (a small pull towards the fight,
#: deciding between end states with equal expected damage)
HUNTER_PULL = 0.05
#: brawler: points per hex of distance to the nearest enemy (its whole aim is to close in)
BRAWLER_PULL = 1.0
#: brawler: points for an end state from which it can engage (outweighs any distance)
BRAWLER_ENGAGE_BONUS = 100.0
#: sniper: weight of the damage it may receive against the damage it may deal (it is cautious)
SNIPER_DANGER_WEIGHT = 1.5
#: sniper: points of extra danger for ending in an enemy's dark or grey area (its best shots)
SNIPER_EXPOSED = 2.0
#: sniper: the range band it keeps (hexes) ...
SNIPER_MIN_RANGE = 3
SNIPER_MAX_RANGE = 5
#: ... and the points it loses per hex closer than the band, and per hex beyond it
SNIPER_TOO_CLOSE = 3.0
SNIPER_TOO_FAR = 0.3
#: target choice: the value of a target grows by 1 for every this many damage points its most
#: damaged part has lost (finishing a wounded dragon is worth more than a fresh shot)
WOUND_SCALE = 60.0
#: ways to roll each 2d6 total 2..12 (the weights of a hit location)
TWO_D6_WAYS = (1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0)
#: sentinels: "no close combat available" (a score below any real one) and "no enemy" /
#: "no limit" (a distance or count beyond any real one)
NO_ENGAGE = -1e9
FAR = 1 << 30
#: on the ground (advanced rules, p.17): points a hex and facing on the ground loses when the
#: take-off's straight leap (its minimum speed in hexes) would leave the board from there, so
#: that it could not take off next turn
GROUND_NO_TAKEOFF = 3.0


@inner_fn
def plan_ground_move(pid, ds, i, reach, run, w):
    """Where a planner on the ground moves (advanced rules, p.17: up to ``reach`` hexes, turns
    free; ``reach`` 0: it only turns): ``(q, r, facing)``. Every planner scores the hexes and
    facings within reach the hunter's way (its expected breath damage from there, the
    grounded attacker's -1 included, less the enemies' expected damage at it, moved enemies
    at full weight and the others at ``UNMOVED_THREAT_WEIGHT``), less ``GROUND_NO_TAKEOFF``
    when it could not take off from there next turn, less ``HUNTER_PULL`` per hex to the
    nearest enemy. The first best in a fixed order, or (fair versions) one of the best
    uniformly."""
    tb, range_mod, plan, pst = run.tb, run.range_mod, run.plan, w.pst
    scal = tb.scalars
    width, depth = scal[S_BOARD_WIDTH], scal[S_BOARD_DEPTH]
    fair = FAIR[pid] == 1
    weighted = WEIGHTED[pid] == 1
    w_off1 = plan[PLAN_WEIGHTS, W_OFF_MOVED] if weighted else 1.0
    w_off0 = plan[PLAN_WEIGHTS, W_OFF_UNMOVED] if weighted else 1.0
    w_dng1 = plan[PLAN_WEIGHTS, W_DNG_MOVED] if weighted else 1.0
    w_dng0 = plan[PLAN_WEIGHTS, W_DNG_UNMOVED] if weighted else UNMOVED_THREAT_WEIGHT
    w_pull = plan[PLAN_WEIGHTS, W_PULL] if weighted else HUNTER_PULL
    grounded = stuck_on_ground(ds, i)
    q0 = ds[i, F_Q]
    r0 = ds[i, F_R]
    f0 = ds[i, F_F]
    my_dmg = plan[PLAN_E_DMG, ds[i, F_BREATH]]
    best = -1e300
    bq = q0
    br = r0
    bf = f0
    nbest = 0
    for dq in range(-reach, reach + 1):
        for dr in range(-reach, reach + 1):
            q = q0 + dq
            r = r0 + dr
            if not ground_fits(ds, i, q, r, reach, width, depth):
                continue
            # score as a target standing there (the enemies' shots read my hex from ds)
            ds[i, F_Q] = q
            ds[i, F_R] = r
            near = FAR
            dng = 0.0
            for j in range(ds.shape[0]):
                if not is_enemy(ds, i, j):
                    continue
                d = distance(q, r, ds[j, F_Q], ds[j, F_R])
                if d < near:
                    near = d
                if ds[j, F_ENG] >= 0:
                    continue
                tn2 = target_number(ds, j, i, standing(ds, j), tb, range_mod)
                wd = w_dng1 if ds[j, F_MOVED] == 1 else w_dng0
                dng += wd * p_hit(plan, tn2) * plan[PLAN_E_DMG, ds[j, F_BREATH]]
            for f in range(6):
                off = 0.0
                for j in range(ds.shape[0]):
                    if not is_enemy(ds, i, j) or ds[j, F_ENG] >= 0:
                        continue
                    tn = target_number(ds, i, j, (q, r, f, np.int64(0)), tb, range_mod)
                    wo = w_off1 if ds[j, F_MOVED] == 1 else w_off0
                    v = wo * p_hit(plan, tn) * my_dmg
                    if v > off:
                        off = v
                sc = off - dng
                if near < FAR:
                    sc -= w_pull * near
                if not grounded:
                    ds[i, F_F] = f
                    fits, _, _ = takeoff_path(ds, i, width, depth)
                    ds[i, F_F] = f0
                    if not fits:
                        sc -= GROUND_NO_TAKEOFF
                if sc > best:
                    best = sc
                    bq = q
                    br = r
                    bf = f
                    nbest = 1
                elif fair and sc == best:
                    nbest += 1
                    if draw_below(pst, nbest) == 0:
                        bq = q
                        br = r
                        bf = f
            # back to where it stands: the next hex's reach is measured from there
            ds[i, F_Q] = q0
            ds[i, F_R] = r0
    return bq, br, bf


# ---- the move: plan_move and its parts, in the order it runs them ------------------------------
# The parts are inlined (one call site each, in a hot loop): plan_move compiles to the one
# function it was, with the batch on its stack and the scoring loops vectorised as before.


class Style(NamedTuple):
    """What a planner's move depends on besides the state (:func:`planner_style`)."""

    kind: int  # P_HUNTER, P_BRAWLER or P_SNIPER
    fair: bool  # ties: one of the best uniformly (else the first)
    exact: bool  # board edge: some legal path stays on it (else the stored one)
    weighted: bool  # the weights below are the planning table's row (hunter-4)
    w_off1: float  # the shot it deals an enemy that has moved ...
    w_off0: float  # ... and one that has not
    w_dng1: float  # the shot it receives from an enemy that has moved ...
    w_dng0: float  # ... and from one that has not (it moves before breath combat)
    w_edge: float  # points per hex of room ahead lacking (of ROOM_AHEAD)
    w_pull: float  # the hunter: points per hex to the nearest enemy


class Batch(NamedTuple):
    """A batch of up to ``PLAN_BATCH`` end states a planner scores together, on the stack
    (:func:`plan_move`)."""

    p: np.ndarray  # int64: the packed record (passes 2 and 3: the move-table entry)
    q: np.ndarray  # int64: the end hex ...
    r: np.ndarray  # int64
    f: np.ndarray  # int64: ... and facing
    nr: np.ndarray  # int64: the distance to the nearest enemy
    off: np.ndarray  # float64: the best expected breath damage dealt
    dng: np.ndarray  # float64: the expected breath damage received
    eng: np.ndarray  # float64: the best close combat available (NO_ENGAGE: none)
    sc: np.ndarray  # float64: the policy's score


@game_fn(inline="always")
def planner_style(pid, plan):
    """Planner ``pid``'s :class:`Style`: its kind, its tie rule, its board-edge check, and
    the weights of its score: the planning table's row for a weighted version (hunter-4),
    the constants for earlier ones (the same values reach the same arithmetic, so their
    scores are unchanged to the bit)."""
    kind = KINDS[pid]
    fair = FAIR[pid] == 1
    exact = EDGE_EXACT[pid] == 1
    if WEIGHTED[pid] == 1:
        wt = plan[PLAN_WEIGHTS]
        off1, off0 = wt[W_OFF_MOVED], wt[W_OFF_UNMOVED]
        dng1, dng0 = wt[W_DNG_MOVED], wt[W_DNG_UNMOVED]
        return Style(kind, fair, exact, True, off1, off0, dng1, dng0, wt[W_EDGE], wt[W_PULL])
    return Style(
        kind, fair, exact, False, 1.0, 1.0, 1.0, UNMOVED_THREAT_WEIGHT, EDGE_WEIGHT, HUNTER_PULL
    )


@game_fn(inline="always")
def nearest_enemy(ds, i, fair, pst):
    """The enemy a planner's move aims at: ``(distance, altitude, q, r, facing)`` of the
    nearest (distance ``FAR`` and dragon ``i``'s own altitude when there is none). Between
    enemies as near, the first; a fair version keeps one of them uniformly (from ``pst``)."""
    q0 = ds[i, F_Q]
    r0 = ds[i, F_R]
    near = FAR
    talt = ds[i, F_ALT]
    nq = 0
    nr_ = 0
    nf = 0
    ties = 0  # enemies as near as the nearest so far
    for j in range(ds.shape[0]):
        if is_enemy(ds, i, j):
            d = distance(q0, r0, ds[j, F_Q], ds[j, F_R])
            take = d < near
            if take:
                ties = 1
            elif fair and d == near:
                ties += 1
                take = draw_below(pst, ties) == 0
            if take:
                near = d
                talt = ds[j, F_ALT]
                nq = ds[j, F_Q]
                nr_ = ds[j, F_R]
                nf = ds[j, F_F]
    return near, talt, nq, nr_, nf


@game_fn(inline="always")
def _pass_block(mv_off, mr, speed, dalt, dlo, dhi):
    """``(first entry, count)`` of the move-table block a planner samples for altitude change
    ``dalt`` at ``speed`` (budget ``speed - dalt``); count 0 when ``dalt`` leaves the
    altitude bounds ``dlo..dhi`` or no move has that budget."""
    b = speed - dalt
    if dalt < dlo or dalt > dhi or b < 0 or b >= mv_off.shape[1] - 1:
        return 0, 0
    a = mv_off[mr, b]
    return a, mv_off[mr, b + 1] - a


@game_fn(inline="always")
def sample_starts(mv, mr, f0, speed, other, dlo, dhi, pst):
    """Where the two sampled passes (no altitude change, and ``other``) start in their
    blocks: ``(start0, start1)``, -1 for a pass with nothing to sample. Drawn now, in pass
    order (so the stream is the same), and their first packed records prefetched: the blocks
    of all ratings and speeds outgrow the L2 cache, and the first record of a pass is
    otherwise a miss that stalls the decision. The setup after it runs while the lines
    arrive."""
    pk = mv.pk[f0]
    start0 = -1
    start1 = -1
    for c_ in range(2):
        if c_ == 1 and other == 0:
            continue
        dalt = 0 if c_ == 0 else other
        a, c = _pass_block(mv.off, mr, speed, dalt, dlo, dhi)
        if c == 0:
            continue
        pos = (draw_below(pst, c) * mv.inv[mr, speed - dalt]) % c
        for ahead in range(0, 16 if c_ == 0 else 8, 4):  # the lines of its first samples
            prefetch(pk, a + pos + ahead)
        prefetch(mv.pe, a + pos)
        if c_ == 0:
            start0 = pos
        else:
            start1 = pos
    return start0, start1


@game_fn(inline="always")
def board_frame(ds, i, scal):
    """The board's bounds around dragon ``i``, hoisted out of every end state's check:
    ``(q0, r0, f0, par, rlo, rhi, clo, chi, pc)``, its hex and facing, the parity of its
    (offset) row, the row and column offsets that stay on the board, and the column bounds
    of that parity in a packed record."""
    q0 = ds[i, F_Q]
    r0 = ds[i, F_R]
    par = r0 & 1
    col0 = q0 + (r0 - par) // 2
    rhi = scal[S_BOARD_DEPTH] - 1 - r0
    chi = scal[S_BOARD_WIDTH] - 1 - col0
    return q0, r0, ds[i, F_F], par, -r0, rhi, -col0, chi, PK_BOX + 2 + 2 * par


@game_fn(inline="always")
def record_dragons(ds, i, tb_base, scratch):
    """The other dragons, once per decision, into ``scratch``: ``(ne, ho, no)``. First one
    record of 8 per enemy (from index 0, so LLVM sees the indices are not negative and drops
    numba's wraparound code): q, r, facing, the target number of my shot at it before the
    arc, range and altitude modifiers (less the bias, plus one: PLAN_P_HIT1), altitude,
    engagement, moved, and breath step << 8 | index; then, from ``ho = 8 * len(ds)``, the
    hexes of the ``no`` other dragons in play (an end state must not be one)."""
    ho = 8 * ds.shape[0]
    no = 0
    for j in range(ds.shape[0]):
        if j != i and ds[j, F_ALIVE] == 1:
            scratch[ho + 2 * no] = ds[j, F_Q]
            scratch[ho + 2 * no + 1] = ds[j, F_R]
            no += 1
    ne = 0
    for j in range(ds.shape[0]):
        if is_enemy(ds, i, j):
            k = 8 * ne
            scratch[k] = ds[j, F_Q]
            scratch[k + 1] = ds[j, F_R]
            scratch[k + 2] = ds[j, F_F]
            scratch[k + 3] = tb_base + ds[j, F_TOHIT] - SHOT_BIAS + 1
            scratch[k + 4] = ds[j, F_ALT]
            scratch[k + 5] = ds[j, F_ENG]
            scratch[k + 6] = ds[j, F_MOVED]
            scratch[k + 7] = ds[j, F_BREATH] * 256 + j
            ne += 1
    return ne, ho, no


@game_fn(inline="always")
def collect_behind(ds, i, mr, speed, dalt, foe, style, batch, run):
    """Passes 2 and 3 (the hunter): the end states behind the nearest enemy ``foe`` (its
    hex and facing), the three hexes at its back, facing it or one hexside off, looked up
    by where they end (in the frame of a dragon facing E: rotated back by my facing), into
    ``batch``: how many fit (their move-table entries, not packed records). Those are where
    an exhaustive search most often ends (behind it, out of its arc, breathing at
    point-blank range) and where a sample of a block of hundreds rarely lands."""
    mv, scal = run.mv, run.tb.scalars
    nq, nr_, nf = foe
    bp, bq, br, bf = batch.p, batch.q, batch.r, batch.f
    q0 = ds[i, F_Q]
    r0 = ds[i, F_R]
    f0 = ds[i, F_F]
    b = speed - dalt
    go = mv.tg_off[mr, b]
    if go < 0:
        return 0
    sb = 2 * b + 1
    # three steps, so the table misses of the nine targets overlap instead of queueing: look
    # every target up, then ask for the rows its legality check reads, then check
    nt = 0
    for rel in range(2, 5):
        dd = (nf + rel) % 6
        tq = nq + DQ[dd]
        tr = nr_ + DR[dd]
        dme = (dd + 3) % 6  # from there towards the enemy
        oq, orr = rotate(tq - q0, tr - r0, 6 - f0)
        inb = -b <= oq and oq <= b and -b <= orr and orr <= b
        for turn_ in range(3):
            fe_ = (dme + (0, 1, 5)[turn_]) % 6
            k = ((oq + b) * sb + orr + b) * 6 + (fe_ - f0 + 6) % 6
            bp[nt] = mv.tg[go + k] if inb else -1
            bq[nt] = tq
            br[nt] = tr
            bf[nt] = fe_
            nt += 1
    for t_ in range(nt):
        if bp[t_] >= 0:
            prefetch(mv.box, bp[t_])
            prefetch(mv.h, bp[t_])
            prefetch(mv.rq, bp[t_])
    nc = 0
    for t_ in range(nt):
        e = bp[t_]
        if e >= 0 and move_fits_as(style.exact, ds, i, e, dalt, mv, scal):
            bp[nc] = e
            bq[nc] = bq[t_]
            br[nc] = br[t_]
            bf[nc] = bf[t_]
            nc += 1
    return nc


@game_fn(inline="always")
def collect_sampled(walk, lim, dalt, exact, frame, others, batch, run, scratch):
    """The next batch of sampled end states that fit, up to ``lim``, into ``batch`` (packed
    record indices): ``(nc, pos, seen)``. ``walk = (a, c, pos, seen)``: the block's first
    entry and size, where the scattered visit is and how many it has seen. The checks of
    :func:`~dragonsim.lords.game.mechanics.move_fits`, hoisted (``frame``:
    :func:`board_frame`; ``others = (ho, no)``: the other dragons' ``no`` hexes from
    ``scratch[ho]``, :func:`record_dragons`); an exact version tries the entry's other paths
    when the stored one leaves the board."""
    mv, scal = run.mv, run.tb.scalars
    a, c, pos, seen = walk
    q0, r0, f0, par, rlo, rhi, clo, chi, pc = frame
    bp, bq, br, bf = batch.p, batch.q, batch.r, batch.f
    width, depth = scal[S_BOARD_WIDTH], scal[S_BOARD_DEPTH]
    pk = mv.pk[f0]
    adal = dalt if dalt >= 0 else -dalt
    ho, no = others
    nc = 0
    while nc < lim and seen < c:
        # banking: jump over the entries with a drop, which fail the check below (the same
        # entries visited, in the same order, the same pos and seen after)
        sk = np.int64(pk[a + pos, PK_SKIP])
        while sk > 0 and seen < c:
            sk = min(sk, c - seen)
            pos += sk
            if pos >= c:
                pos -= c
            seen += sk
            sk = np.int64(pk[a + pos, PK_SKIP]) if seen < c else 0
        if seen >= c:
            break
        p = a + pos
        pos += 1
        if pos == c:
            pos = 0
        seen += 1
        q = q0 + pk[p, PK_RQ]
        r = r0 + pk[p, PK_RR]
        ok = (
            (pk[p, PK_H] >= adal)
            & (pk[p, PK_LM] == 0)  # banking: one bank at a time (no drop)
            & (pk[p, PK_BOX] >= rlo)
            & (pk[p, PK_BOX + 1] <= rhi)
            & (pk[p, pc] >= clo)
            & (pk[p, pc + 1] <= chi)
        )
        for o in range(no):
            ok &= (scratch[ho + 2 * o] != q) | (scratch[ho + 2 * o + 1] != r)
        if (
            exact
            and not ok
            and pk[p, PK_H] >= adal
            and pk[p, PK_LM] == 0
            and pk[p, PK_ALT_EVEN + par] > 0
        ):
            # the stored path leaves the board (or the hex is taken): another path to the
            # same end state may stay on, if the end hex is on it
            rc = q + ((r - (r & 1)) >> 1)
            ok = (r >= 0) & (r < depth) & (rc >= 0) & (rc < width)
            for o in range(no):
                ok &= (scratch[ho + 2 * o] != q) | (scratch[ho + 2 * o + 1] != r)
            ok = ok and other_path_fits(
                mv.pe[p], f0, q0, r0, adal, width, depth, mv.alt_off, mv.alt
            )
        # written every time, kept (nc advances) only when it fits: no branch
        bp[nc] = p
        bq[nc] = q
        br[nc] = r
        bf[nc] = pk[p, PK_F_END]  # the facing at the end
        nc += 1 if ok else 0
    return nc, pos, seen


@game_fn(inline="always")
def score_shots(ds, i, alt, ne, nc, style, batch, run, scratch):
    """The value terms of the ``nc`` end states in ``batch`` at altitude ``alt``, one enemy at
    a time (its record of ``ne`` in ``scratch``, :func:`record_dragons`): the distance to the
    nearest enemy, the best expected breath damage dealt next phase, the enemies' expected
    damage from where they stand, and the best close combat available. Loops without branches,
    which LLVM vectorises, gathering from the geometry and planning tables. Shots out of arc
    read P(hit) = 0 (OUT_SHOT, PLAN_P_HIT1); out of range (or beyond the neck bend) the
    lookups read offset (0, 0) and their values are dropped."""
    tb, plan, geo = run.tb, run.plan, run.geo
    scal, alt_mod, cc_by_mr = tb.scalars, tb.alt_mod, tb.cc_by_mr
    self_dice = scal[S_CC_SELF_DAMAGE_DICE]
    bp, bq, br, bf, bnr, boff, bdng, beng, bsc = batch
    rng = scal[S_MAX_RANGE]
    side = geo[G_SIDE]
    cen = geo[G_SHOT] + 6 * (rng * side + rng)  # the packed shots of offset (0, 0)
    my_dmg = plan[PLAN_E_DMG, ds[i, F_BREATH]]
    my_tn = scal[S_BASE_TO_HIT] + ds[i, F_TOHIT] - SHOT_BIAS + 1
    sniper = style.kind == P_SNIPER
    for k in range(nc):
        boff[k] = 0.0
        bdng[k] = 0.0
        beng[k] = NO_ENGAGE
        bnr[k] = FAR
    for m in range(ne):
        e8 = 8 * m
        qe = scratch[e8]
        re_ = scratch[e8 + 1]
        if scratch[e8 + 5] >= 0:  # engaged: neither breathes nor is breathed at
            for k in range(nc):
                dq = qe - bq[k]
                dr = re_ - br[k]
                bnr[k] = min(bnr[k], (abs(dq) + abs(dr) + abs(dq + dr)) >> 1)
            continue
        fe = scratch[e8 + 2]
        c3 = scratch[e8 + 3]
        ealt = scratch[e8 + 4]
        moved = scratch[e8 + 6]
        ada = abs(alt - ealt)
        am = alt_mod[ada] if ada < alt_mod.shape[0] else 0
        # its shot at me from the ground takes the grounded attacker's -1 (p.19)
        ag = alt_mod[ALT_MOD_GROUND] if ealt == 0 else 0
        wd = style.w_dng1 if moved else style.w_dng0
        wo = style.w_off1 if moved else style.w_off0
        e_dmg = plan[PLAN_E_DMG, scratch[e8 + 7] >> 8]
        j_ = scratch[e8 + 7] & 255
        # close combat right after this move: it has moved, same altitude, not Very Low, and
        # I end facing it from the next hex (checked per end state below)
        ev = NO_ENGAGE
        if moved == 1 and ealt == alt and alt > 1:
            if style.weighted:
                ev = engage_weighted(ds, i, j_, plan, cc_by_mr, self_dice)
            else:
                ev = engage_value(ds, i, j_, plan, cc_by_mr, self_dice)
        for k in range(nc):
            f = bf[k]
            dq = qe - bq[k]
            dr = re_ - br[k]
            dist = (abs(dq) + abs(dr) + abs(dq + dr)) >> 1
            bnr[k] = min(bnr[k], dist)
            inr = 1 <= dist and dist <= rng and dist >= ada
            o6 = 6 * (dq * side + dr) if inr else 0
            v_ = geo[cen + o6 + f]  # my shot at it
            w_ = geo[cen - o6 + fe]  # its shot at me
            tn = c3 + (v_ >> 2) + am
            off = max(boff[k], wo * (plan[PLAN_P_HIT1, min(max(tn, 0), PLAN_WIDTH - 1)] * my_dmg))
            tn2 = my_tn + (w_ >> 2) + am + ag
            dng = bdng[k] + (wd * plan[PLAN_P_HIT1, min(max(tn2, 0), PLAN_WIDTH - 1)] * e_dmg)
            if sniper and (w_ & 3) <= 1:
                dng += SNIPER_EXPOSED
            boff[k] = off if inr else boff[k]
            bdng[k] = dng if inr else bdng[k]
            adj = dist == 1 and ((ADJ_CODES >> (4 * f)) & 15) == 3 * dq + dr + 4
            beng[k] = ev if adj and ev > beng[k] else beng[k]


@game_fn(inline="always")
def score_policy(nc, style, batch, geo):
    """The policy's score of the ``nc`` end states in ``batch`` from their value terms
    (:func:`score_shots`) and the room ahead of each (the geometry table ``geo``): the
    brawler closes in and engages, the sniper keeps its range band and weighs the danger, the
    hunter weighs the shots (and takes a better close combat). 0 with no enemy left."""
    bp, bq, br, bf, bnr, boff, bdng, beng, bsc = batch
    kind = style.kind
    ro = geo[G_ROOM]
    gw = geo[G_WIDTH]
    for k in range(nc):
        nr = bnr[k]
        if nr == FAR:
            bsc[k] = 0.0
            continue
        q = bq[k]
        r = br[k]
        room = geo[ro + 6 * (r * gw + q + ((r - (r & 1)) >> 1)) + bf[k]]
        edge = style.w_edge * (ROOM_AHEAD - room)
        if kind == P_BRAWLER:
            sc = -BRAWLER_PULL * nr - edge
            if beng[k] > NO_ENGAGE:
                sc += BRAWLER_ENGAGE_BONUS
        elif kind == P_SNIPER:
            sc = boff[k] - SNIPER_DANGER_WEIGHT * bdng[k] - edge
            if nr < SNIPER_MIN_RANGE:
                sc -= SNIPER_TOO_CLOSE * (SNIPER_MIN_RANGE - nr)
            elif nr > SNIPER_MAX_RANGE:
                sc -= SNIPER_TOO_FAR * (nr - SNIPER_MAX_RANGE)
        else:  # hunter
            sc = boff[k] - bdng[k] - edge - style.w_pull * nr
            if beng[k] > NO_ENGAGE and beng[k] > sc:
                sc = beng[k]
        bsc[k] = sc


@game_fn(inline="always")
def first_best(nc, bsc, fair, best, nbest, pst):
    """The end state of the ``nc`` scores ``bsc`` a planner keeps over ``best`` so far:
    ``(nb, best, nbest)``, nb -1 when none beats it. The first best in visiting order; a fair
    version keeps one of the end states scored exactly as high uniformly (reservoir sampling
    over the ``nbest`` ties, from ``pst``)."""
    nb = -1
    for k in range(nc):
        if bsc[k] > best:
            best = bsc[k]
            nb = k
            nbest = 1
        elif fair and bsc[k] == best:
            nbest += 1
            if draw_below(pst, nbest) == 0:
                nb = k
    return nb, best, nbest


@inner_fn
def plan_move(pid, ds, i, speed, run, w):
    """Choose a move for dragon ``i`` flying exactly ``speed`` points.

    Returns ``(entry, dalt)``: a move-table entry and the altitude change (climbs cost one
    extra point per level, dives one point less), or ``(-1, 0)`` when no move stays on the
    board and ends in an empty hex (the dragon must then leave the board). With
    ``EDGE_EXACT[pid]`` an end state stays on the board when some legal path to it does (the
    stored path's box, else the entry's alternatives ``mv.alt_off``, ``mv.alt``:
    :func:`~dragonsim.lords.game.mechanics.move_fits_exact`); otherwise when the stored path does.

    The planner (:func:`planner_style`) aims at the nearest enemy (:func:`nearest_enemy`) and
    scores end states in passes, a batch at a time: :func:`collect_sampled` (or
    :func:`collect_behind`) gathers end states that fit, :func:`score_shots` and
    :func:`score_policy` value them, :func:`first_best` keeps the best. ``w.scratch`` (int64,
    at least 10 * the number of dragons) holds one record of 8 per enemy, then the other
    dragons' hexes (:func:`record_dragons`).
    """
    mv, scal, pst, scratch = run.mv, run.tb.scalars, w.pst, w.scratch
    style = planner_style(pid, run.plan)
    samples = ds[i, F_SAMPLES]
    if style.weighted:
        samples *= int(run.plan[PLAN_BREADTH, ds[i, F_MR]])
    mr = move_row(ds, i)  # (the table row: the rating, and a turn carried, p.16)
    alt0 = ds[i, F_ALT]
    dlo = 1 - alt0
    dhi = scal[S_ALTITUDE_LEVELS] - alt0
    near, talt, nq, nr_, nf = nearest_enemy(ds, i, style.fair, pst)
    # altitude changes considered: none, and one level towards the nearest enemy (a brawler:
    # all the way, to meet it at its altitude); the second gets half the samples
    full = talt - alt0
    one = 0
    if full > 0:
        one = 1
    elif full < 0:
        one = -1
    other = full if style.kind == P_BRAWLER else one
    start0, start1 = sample_starts(mv, mr, ds[i, F_F], speed, other, dlo, dhi, pst)
    frame = board_frame(ds, i, scal)
    ne, ho, no = record_dragons(ds, i, scal[S_BASE_TO_HIT], scratch)
    # End states are scored in batches. A scalar loop collects up to PLAN_BATCH of them that
    # fit; loops without branches then score the whole batch, one enemy at a time (LLVM
    # vectorises them, gathering from the geometry and planning tables; the batch lives on
    # the stack, which is what lets it: see stack_empty); a last scalar loop keeps the first
    # best in visiting order. The same end states, the same arithmetic and the same choice
    # as scoring each end state as it is found, at a fraction of the cost per end state.
    batch = Batch(
        stack_empty(PLAN_BATCH, np.int64),
        stack_empty(PLAN_BATCH, np.int64),
        stack_empty(PLAN_BATCH, np.int64),
        stack_empty(PLAN_BATCH, np.int64),
        stack_empty(PLAN_BATCH, np.int64),
        stack_empty(PLAN_BATCH, np.float64),
        stack_empty(PLAN_BATCH, np.float64),
        stack_empty(PLAN_BATCH, np.float64),
        stack_empty(PLAN_BATCH, np.float64),
    )
    best = -1e300
    be = -1
    bd = 0
    nbest = 0  # end states scored as high as the best so far (fair versions)
    # Passes 0 and 1 sample those two altitude changes. Passes 2 and 3 (the hunter) look up,
    # for the same two, the end states behind the nearest enemy (:func:`collect_behind`).
    # When nothing fits (a corner, a crowd), passes 4.. scan every altitude change in full,
    # so a dragon leaves the board only when no legal move exists at all.
    for c_ in range(4 + dhi - dlo + 1):
        # visit the entries in a scattered order (a stride coprime to c from a random start)
        # and score the first `quota` that fit. The packed copy stores each block in that
        # order, so the visit reads memory sequentially (see MoveTables).
        if c_ < 2:
            pos = start0 if c_ == 0 else start1
            if pos < 0:
                continue
            dalt = 0 if c_ == 0 else other
            quota = samples if c_ == 0 else (samples + 1) // 2
        elif c_ < 4:
            if style.kind != P_HUNTER or near == FAR or (c_ == 3 and other == 0):
                continue
            pos = 0
            dalt = 0 if c_ == 2 else other
            quota = FAR  # the whole block
        else:
            if be >= 0:
                break
            pos = 0
            dalt = dlo + c_ - 4
            quota = FAR  # the whole block
        a, c = _pass_block(mv.off, mr, speed, dalt, dlo, dhi)
        if c == 0:
            continue
        found = 0
        seen = 0
        while seen < c and found < quota:
            if c_ == 2 or c_ == 3:
                nc = collect_behind(ds, i, mr, speed, dalt, (nq, nr_, nf), style, batch, run)
                seen = c  # one batch
            else:
                lim = min(PLAN_BATCH, quota - found)
                walk = (a, c, pos, seen)
                nc, pos, seen = collect_sampled(
                    walk, lim, dalt, style.exact, frame, (ho, no), batch, run, scratch
                )
            if nc == 0:
                break
            score_shots(ds, i, alt0 + dalt, ne, nc, style, batch, run, scratch)
            score_policy(nc, style, batch, run.geo)
            nb, best, nbest = first_best(nc, batch.sc, style.fair, best, nbest, pst)
            if nb >= 0:
                be = batch.p[nb] if c_ == 2 or c_ == 3 else mv.pe[batch.p[nb]]
                bd = dalt
                # the engine applies the chosen entry from the scattered tables next:
                # start loading its rows now (a hint only)
                prefetch(mv.rq, be)
                prefetch(mv.rr, be)
            found += nc
    return be, bd


@inner_fn
def plan_engage(pid, ds, i, j, run):
    """Whether a planner engages the one candidate ``j`` (``j`` or -1): the brawler always,
    the sniper never, the hunter when the expected tooth-and-claw exchange beats the breath
    exchange it gives up, and never when the engagement would crash it (advanced rules,
    p.17: at Very Low, or flying too slowly to lose 2 points of speed): a crash costs 1d6 a
    level fallen and the freedom to fly, which its estimate of the fight does not count."""
    opt, tb, range_mod, plan = run.opt, run.tb, run.range_mod, run.plan
    scal = tb.scalars
    cc_by_mr, self_dice = tb.cc_by_mr, scal[S_CC_SELF_DAMAGE_DICE]
    kind = KINDS[pid]
    if kind == P_BRAWLER:
        return j
    if kind == P_SNIPER:
        return -1
    if ds[i, F_ALT] == 1 or (ds[i, F_ALT] > 0 and crash_after_combat(ds, i, opt, scal)):
        return -1
    weighted = WEIGHTED[pid] == 1
    if weighted:  # the weights the move was scored with (j has moved: it is adjacent)
        ev = engage_weighted(ds, i, j, plan, cc_by_mr, self_dice)
    else:
        ev = engage_value(ds, i, j, plan, cc_by_mr, self_dice)
    # the breath exchange given up: my shot at j minus j's shot at me
    tn = target_number(ds, i, j, standing(ds, i), tb, range_mod)
    mine = p_hit(plan, tn) * plan[PLAN_E_DMG, ds[i, F_BREATH]]
    tn2 = target_number(ds, j, i, standing(ds, j), tb, range_mod)
    theirs = p_hit(plan, tn2) * plan[PLAN_E_DMG, ds[j, F_BREATH]]
    if weighted:
        mine *= plan[PLAN_WEIGHTS, W_OFF_MOVED]
        theirs *= plan[PLAN_WEIGHTS, W_DNG_MOVED]
    return j if ev > mine - theirs else -1


@game_fn(inline="always")
def wound_weight(ds, j):
    """The targeting weight of dragon ``j``: 1 plus its largest damage on one part over
    ``WOUND_SCALE`` (the planners aim at the dragon nearest to losing a part)."""
    weak = 0
    for p in range(N_PARTS):
        lost = ds[j, F_DP0 + p] - ds[j, F_DP + p]
        if lost > weak:
            weak = lost
    return 1.0 + weak / WOUND_SCALE


@inner_fn
def plan_target(pid, ds, i, run, w):
    """The legal target with the best chance to hit, weighted towards finishing wounded
    dragons (-1: none). Between targets of equal value a fair version takes one uniformly
    (from the policy stream ``w.pst``), an earlier one the lowest index."""
    tb, range_mod, plan, pst = run.tb, run.range_mod, run.plan, w.pst
    fair = FAIR[pid] == 1
    best = -1.0
    bt = -1
    ties = 0
    for j in range(ds.shape[0]):
        if not is_enemy(ds, i, j) or ds[j, F_ENG] >= 0:
            continue
        tn = target_number(ds, i, j, standing(ds, i), tb, range_mod)
        if tn < 0:
            continue
        # expected damage, weighted towards finishing weakened dragons
        v = p_hit(plan, tn) * wound_weight(ds, j)
        if v > best:
            best = v
            bt = j
            ties = 1
        elif fair and v == best:
            ties += 1
            if draw_below(pst, ties) == 0:
                bt = j
    return bt


@inner_fn
def plan_rider_target(pid, ds, i, run, w):
    """The rider target (advanced rules, p.18) with the most expected damage, the chance to
    hit times the band's mean damage (Rider Abilities Table), weighted towards finishing
    wounded dragons as :func:`plan_target` weighs breath (-1: none in reach). Ties as there."""
    opt, tb, plan, pst = run.opt, run.tb, run.plan, w.pst
    scal = tb.scalars
    tb_base, alt_mod = scal[S_BASE_TO_HIT], tb.alt_mod
    rider_range, rider_dice = tb.rider_range, tb.rider_dice
    fair = FAIR[pid] == 1
    kind = ds[i, F_RIDER]
    best = -1.0
    bt = -1
    ties = 0
    for j in range(ds.shape[0]):
        if not may_shoot_at(ds, i, j, opt):
            continue
        tn, band = rider_target_number(ds, i, j, tb_base, alt_mod, rider_range, scal)
        if tn < 0:
            continue
        mean = MEAN_D6 * rider_dice[kind, band, 0] + rider_dice[kind, band, 1]
        v = p_hit(plan, tn) * mean * wound_weight(ds, j)
        if v > best:
            best = v
            bt = j
            ties = 1
        elif fair and v == best:
            ties += 1
            if draw_below(pst, ties) == 0:
                bt = j
    return bt


@game_fn
def plan_side(pid, ds, t, side1, side2, alloc, pst):
    """The side whose hit locations bring the target's parts closest to 0; on a tie the first
    (earlier versions) or either with probability 1/2 (fair versions, from ``pst``)."""
    v1 = 0.0
    v2 = 0.0
    w = TWO_D6_WAYS
    for roll in range(2, 13):
        p1 = alloc[roll, side1]
        p2 = alloc[roll, side2]
        v1 += w[roll - 2] / (1.0 + ds[t, F_DP + p1])
        v2 += w[roll - 2] / (1.0 + ds[t, F_DP + p2])
    if v1 == v2 and FAIR[pid] == 1:
        return side1 if draw_below(pst, 2) == 0 else side2
    return side1 if v1 >= v2 else side2


@game_fn
def plan_facing(ds, i, j):
    """Turn to face the loser."""
    return facing_toward(ds[i, F_Q], ds[i, F_R], ds[j, F_Q], ds[j, F_R])


guard_caches(
    sys.modules[__name__],
    [
        _plan,
        hexes,
        mechanics,
        movetables,
        state,
        tables,
        _random,
        _llvm,
        _kernels,
        sys.modules[__package__],
    ],
)
