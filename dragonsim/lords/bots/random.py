"""The ``random`` bot family: uniformly random legal choices (random-1).

Each function is one decision of :mod:`.dispatch` for a dragon whose policy is in the random
family; they draw from the policy stream ``pst`` only.
"""

from __future__ import annotations

import sys

import numpy as np

from ... import _kernels
from ... import random as _random
from ..._kernels import game_fn, guard_caches, inner_fn
from ..game import hexes, mechanics, movetables, state
from ..game.mechanics import (
    bank_fits,
    draw_below,
    ground_fits,
    is_enemy,
    landing_hex,
    may_shoot_at,
    may_take_off,
    move_fits_as,
    move_row,
    rider_target_number,
    standing,
    target_number,
)
from ..game.movetables import BK_LM
from ..game.state import F_ALT, F_ENG, F_Q, F_R
from ..game.tables import S_ALTITUDE_LEVELS, S_BOARD_DEPTH, S_BOARD_WIDTH
from . import EDGE_EXACT


@game_fn
def pick_speed(lo, hi, pst):
    """A speed uniform on ``lo..hi``."""
    return lo + draw_below(pst, hi - lo + 1)


@inner_fn
def pick_move(pid, ds, i, speed, run, w):
    """A move uniform over the (entry, altitude change) pairs that stay on the board and end in
    an empty hex; ``(-1, 0)`` when there is none. With ``EDGE_EXACT[pid]`` a pair stays on
    when some legal path to it does (:func:`~dragonsim.lords.game.mechanics.move_fits_exact`),
    otherwise when its stored path does. With banking the entries include every run of banks
    whose drops keep the dragon at Very Low or higher (:func:`~dragonsim.lords.game.mechanics.
    bank_fits`): double banks too."""
    mv, scal, pst = run.mv, run.tb.scalars, w.pst
    mv_off, mv_bk = mv.off, mv.bk
    alt_levels = scal[S_ALTITUDE_LEVELS]
    exact = EDGE_EXACT[pid] == 1
    mr = move_row(ds, i)  # (the table row: the rating, and a turn carried, p.16)
    alt0 = ds[i, F_ALT]
    nb = mv_off.shape[1] - 1
    dlo = 1 - alt0
    dhi = alt_levels - alt0
    # uniform over (entry, dalt) pairs: rejection sampling over all pairs, then a scan
    total = 0
    for dalt in range(dlo, dhi + 1):
        b = speed - dalt
        if 0 <= b < nb:
            total += mv_off[mr, b + 1] - mv_off[mr, b]
    if total == 0:
        return -1, 0
    for _ in range(64):
        k = draw_below(pst, total)
        for dalt in range(dlo, dhi + 1):
            b = speed - dalt
            if 0 <= b < nb:
                c = mv_off[mr, b + 1] - mv_off[mr, b]
                if k < c:
                    e = mv_off[mr, b] + k
                    if move_fits_as(exact, ds, i, e, dalt, mv, scal) and bank_fits(
                        ds, i, e, dalt, mv_bk
                    ):
                        return e, dalt
                    break
                k -= c
    # rejection failed (a corner, a crowd): count the fitting pairs, then take the k-th
    n = 0
    for dalt in range(dlo, dhi + 1):
        b = speed - dalt
        if 0 <= b < nb:
            for e in range(mv_off[mr, b], mv_off[mr, b + 1]):
                if move_fits_as(exact, ds, i, e, dalt, mv, scal) and bank_fits(
                    ds, i, e, dalt, mv_bk
                ):
                    n += 1
    if n == 0:
        return -1, 0
    k = draw_below(pst, n)
    for dalt in range(dlo, dhi + 1):
        b = speed - dalt
        if 0 <= b < nb:
            for e in range(mv_off[mr, b], mv_off[mr, b + 1]):
                if move_fits_as(exact, ds, i, e, dalt, mv, scal) and bank_fits(
                    ds, i, e, dalt, mv_bk
                ):
                    if k == 0:
                        return e, dalt
                    k -= 1
    return -1, 0


@game_fn
def pick_ground_speed(ds, i, lo, hi, width, depth, pst):
    """On the ground (advanced rules, p.17): "ground" (0) or a take-off speed ``lo..hi``,
    uniform over the choices; always 0 when it cannot take off (no speed allowed, or
    :func:`~dragonsim.lords.game.mechanics.may_take_off` says no: the random bot never flies off by
    choice)."""
    if lo > hi or not may_take_off(ds, i, width, depth):
        return np.int64(0)
    k = draw_below(pst, hi - lo + 2)
    return np.int64(0) if k == 0 else lo + k - 1


@game_fn
def pick_land(pst):
    """Land this move, when it can (advanced rules, p.17)? Yes with probability 1/4."""
    return draw_below(pst, 4) == 0


@inner_fn
def pick_landing(pid, ds, i, speed, run, w):
    """A landing move: a flight of ``speed`` points (its recorded speed less the landing's
    point) that ends at Very Low with the hex ahead on the board and free (p.17), uniform over
    those, from a random start of its block; ``(-1, 0)`` when there is none."""
    mv, scal, pst = run.mv, run.tb.scalars, w.pst
    mv_off, mv_bk = mv.off, mv.bk
    width, depth = scal[S_BOARD_WIDTH], scal[S_BOARD_DEPTH]
    exact = EDGE_EXACT[pid] == 1
    mr = move_row(ds, i)  # (the table row: the rating, and a turn carried, p.16)
    dalt = 1 - ds[i, F_ALT]
    b = speed - dalt
    if b < 0 or b >= mv_off.shape[1] - 1:
        return np.int64(-1), np.int64(0)
    a = mv_off[mr, b]
    c = mv_off[mr, b + 1] - a
    n = 0
    pick = np.int64(-1)
    for e in range(a, a + c):
        if mv_bk[e, BK_LM] != 0:
            continue  # (banking) a landing flight drops no level: it ends at Very Low
        if not move_fits_as(exact, ds, i, e, dalt, mv, scal):
            continue
        if not landing_hex(ds, i, e, dalt, mv.rq, mv.rr, mv.f, width, depth)[0]:
            continue
        n += 1
        if draw_below(pst, n) == 0:  # reservoir sampling: uniform over the landings
            pick = e
    if pick < 0:
        return np.int64(-1), np.int64(0)
    return pick, dalt


@game_fn
def pick_ground_move(ds, i, reach, width, depth, pst):
    """A move on the ground (p.17): a hex within ``reach`` and a facing, uniform over the
    legal ones; ``(q, r, facing)``."""
    q0 = ds[i, F_Q]
    r0 = ds[i, F_R]
    n = 0
    bq = q0
    br = r0
    for dq in range(-reach, reach + 1):
        for dr in range(-reach, reach + 1):
            if ground_fits(ds, i, q0 + dq, r0 + dr, reach, width, depth):
                n += 1
                if draw_below(pst, n) == 0:
                    bq = q0 + dq
                    br = r0 + dr
    return bq, br, draw_below(pst, 6)


@game_fn
def pick_engage(j, pst):
    """Engage the one candidate ``j`` with probability 1/2."""
    return j if draw_below(pst, 2) == 1 else -1


@inner_fn
def pick_target(ds, i, run, w):
    """A target uniform over the legal ones (never declines a shot: breath is free)."""
    tb, range_mod, pst = run.tb, run.range_mod, w.pst
    n = 0
    pick = -1
    for j in range(ds.shape[0]):
        if not is_enemy(ds, i, j) or ds[j, F_ENG] >= 0:
            continue
        tn = target_number(ds, i, j, standing(ds, i), tb, range_mod)
        if tn < 0:
            continue
        n += 1
        if draw_below(pst, n) == 0:  # reservoir sampling: uniform over legal targets
            pick = j
    return pick


@game_fn
def pick_rider_target(ds, i, tb_base, alt_mod, rider_range, scal, opt, pst):
    """A rider target uniform over the legal ones (never declines: ammunition is
    unlimited, p.18)."""
    n = 0
    pick = -1
    for j in range(ds.shape[0]):
        if not may_shoot_at(ds, i, j, opt):
            continue
        if rider_target_number(ds, i, j, tb_base, alt_mod, rider_range, scal)[0] < 0:
            continue
        n += 1
        if draw_below(pst, n) == 0:
            pick = j
    return pick


@game_fn
def pick_early(pst):
    """Move earlier in the phase (p.15)? Yes with probability 1/2 at each chance: every
    legal timing is played."""
    return draw_below(pst, 2) == 0


@game_fn
def pick_side(side1, side2, pst):
    """One of the two sides, uniformly."""
    return side1 if draw_below(pst, 2) == 0 else side2


@game_fn
def pick_facing(pst):
    """Any of the six facings, uniformly."""
    return draw_below(pst, 6)


guard_caches(
    sys.modules[__name__],
    [hexes, mechanics, movetables, state, _random, _kernels, sys.modules[__package__]],
)
