"""Before the first turn (p.6): the sheets become dragon state rows (:func:`init_dragons`),
the dragons are placed (:func:`place_dragons`; a scenario's own placement with
``OPT_SETUP``), and :func:`teams_alive` tells how many sides are still in play."""

from __future__ import annotations

import sys

from ..._kernels import game_fn
from ..game.mechanics import (
    draw_below,
    refresh,
    roll_dice,
)
from ..game.state import (
    D_BODY,
    D_BREATH,
    D_CC,
    D_CLAWS,
    D_MR,
    D_POLICY,
    D_RIDER,
    D_SAMPLES,
    D_TEAM,
    D_WINGS,
    F_ABLATE,
    F_ALIVE,
    F_ALT,
    F_BODY,
    F_BREATH0,
    F_CC_ADJ,
    F_CLAW0,
    F_DP,
    F_DP0,
    F_ENG,
    F_ENGAGER,
    F_F,
    F_LAST,
    F_MAGIC,
    F_MAX0,
    F_MIN,
    F_MR0,
    F_POLICY,
    F_Q,
    F_R,
    F_RIDER,
    F_SAMPLES,
    F_SPELL,
    F_STARGET,
    F_TACTIC,
    F_TARGET,
    F_TEAM,
    F_TOHIT,
    F_WINGS,
    K_SETUP,
    L_A,
    N_PARTS,
    NF,
    OPT_PLAN_SAMPLES,
    OPT_SETUP,
    OPT_WIZARD,
    POLICY_BITS,
    RIDER_WIZARD,
    SC_ALT,
    SC_F,
    SC_Q,
    SC_R,
    SC_SPEED,
)
from ..game.tables import (
    S_ALTITUDE_LEVELS,
    S_BOARD_DEPTH,
    S_BOARD_WIDTH,
    S_HEAD_POINTS,
    S_MAGIC_POINTS,
    S_TAIL_POINTS,
)
from .initiative import order_by_rolls
from .inputs import guard
from .log import log_row


@game_fn
def init_dragons(ds, dragons, tb, opt):
    """Fill each dragon's state row from its sheet row (``dragons``: int64 [nd, N_DCOLS]) and
    the rules tables ``tb`` (:class:`~dragonsim.lords.game.tables.KernelTables`): speeds by body and
    wings, damage points by part and size, its size modifier as a target, and how far its
    sheet's close-combat modifier (``D_CC``, the value the exact odds use) stands from the
    Close Combat Ability Table's at its maneuverability (``F_CC_ADJ``: 0 for a derived sheet)."""
    scal = tb.scalars
    nd = dragons.shape[0]
    for i in range(ds.shape[0]):
        for k in range(NF):
            ds[i, k] = 0
        ds[i, F_ENG] = -1
        ds[i, F_ENGAGER] = -1
        ds[i, F_TACTIC] = -1
        ds[i, F_TARGET] = -1
        ds[i, F_SPELL] = -1
        ds[i, F_STARGET] = -1
        if i >= nd:
            continue
        body = dragons[i, D_BODY]
        wings = dragons[i, D_WINGS]
        ds[i, F_ALIVE] = 1
        ds[i, F_TEAM] = dragons[i, D_TEAM]
        ds[i, F_POLICY] = dragons[i, D_POLICY] & ((1 << POLICY_BITS) - 1)
        ds[i, F_ABLATE] = dragons[i, D_POLICY] >> POLICY_BITS
        ds[i, F_BODY] = body
        ds[i, F_WINGS] = wings
        ds[i, F_BREATH0] = dragons[i, D_BREATH]
        ds[i, F_CLAW0] = dragons[i, D_CLAWS]
        ds[i, F_MR0] = dragons[i, D_MR]
        ds[i, F_RIDER] = dragons[i, D_RIDER]
        if opt[OPT_WIZARD] == 1 and dragons[i, D_RIDER] == RIDER_WIZARD:
            ds[i, F_MAGIC] = scal[S_MAGIC_POINTS]  # "Each Wizard begins the game with 60"
        ds[i, F_CC_ADJ] = dragons[i, D_CC] - tb.cc_by_mr[dragons[i, D_MR]]
        ds[i, F_MIN] = tb.min_speed[body]
        ds[i, F_MAX0] = tb.max_speed[wings]
        ds[i, F_LAST] = -1
        ds[i, F_TOHIT] = tb.wing_tohit[wings] + tb.body_tohit[body]
        pts = (
            scal[S_HEAD_POINTS],
            tb.dp_body[body],
            scal[S_TAIL_POINTS],
            tb.dp_wing[wings],
            tb.dp_wing[wings],
        )
        for p in range(N_PARTS):
            ds[i, F_DP + p] = pts[p]
            ds[i, F_DP0 + p] = pts[p]
        refresh(ds, i, scal, opt)


@game_fn
def _edge_hex(edge, k, width, depth):
    """Axial hex number ``k`` along board edge 0 W, 1 E, 2 N, 3 S, and the inward facing."""
    if edge == 0:
        col, row, f = 0, k, 0
    elif edge == 1:
        col, row, f = width - 1, k, 3
    elif edge == 2:
        col, row, f = k, 0, 5 if k < width // 2 else 4
    else:
        col, row, f = k, depth - 1, 1 if k < width // 2 else 2
    q = col - (row - (row & 1)) // 2
    return q, row, f


@game_fn
def place_dragons(ds, nd, run, sst, cnt, width, depth, alt_levels, order, key):
    """Place the dragons: "Have each player roll 2d6. In the order of the dice rolls, lowest to
    highest, each player places his or her dragon in a hex along any edge of the map." Altitude
    is chosen secretly (uniformly by every bot); the first-turn speed is free.

    Where on the edge is left to the players ("in a hex along any edge of the map", p.6), so a
    rule is assumed: the first placer takes a uniformly random edge hex, facing inward; in a
    duel the second is placed "directly across the map", as the two dragons of the Example of
    Play (p.36) are; with more dragons, teammates of the first placer share its edge and the
    other team of a two-team game takes the opposite edge (the team game: a team chooses "from
    which edge of the map its dragons enter the board. The other team's dragons will set up on
    the opposite edge", p.14), and free-for-all dragons take random free edge hexes.
    """
    scen, opt = run.scen, run.opt
    if opt[OPT_SETUP] == 1:
        for i in range(nd):
            ds[i, F_Q] = scen[i, SC_Q]
            ds[i, F_R] = scen[i, SC_R]
            ds[i, F_F] = scen[i, SC_F]
            ds[i, F_ALT] = scen[i, SC_ALT]
            ds[i, F_LAST] = scen[i, SC_SPEED]
        return
    for i in range(nd):
        order[i] = i
        key[i] = roll_dice(sst, 2)
    order_by_rolls(order, key, nd, sst, cnt, key, False)
    first = order[0]
    edge0 = draw_below(sst, 4)
    n0 = depth if edge0 < 2 else width
    k0 = draw_below(sst, n0)
    q, r, f = _edge_hex(edge0, k0, width, depth)
    ds[first, F_Q] = q
    ds[first, F_R] = r
    ds[first, F_F] = f
    opposite = (1, 0, 3, 2)[edge0]
    nteams = 0
    for i in range(nd):
        if ds[i, F_TEAM] + 1 > nteams:
            nteams = ds[i, F_TEAM] + 1
    for a in range(1, nd):
        i = order[a]
        if nd == 2:
            q, r, f = _edge_hex(opposite, k0, width, depth)
        else:
            for _ in range(1000):
                if ds[i, F_TEAM] == ds[first, F_TEAM]:
                    edge = edge0
                elif nteams == 2:
                    edge = opposite
                else:
                    edge = draw_below(sst, 4)
                n = depth if edge < 2 else width
                q, r, f = _edge_hex(edge, draw_below(sst, n), width, depth)
                free = True
                for b in range(a):
                    j = order[b]
                    if ds[j, F_Q] == q and ds[j, F_R] == r:
                        free = False
                if free:
                    break
        ds[i, F_Q] = q
        ds[i, F_R] = r
        ds[i, F_F] = f
    for i in range(nd):
        ds[i, F_ALT] = 1 + draw_below(sst, alt_levels)


@game_fn
def teams_alive(ds, nd):
    """(number of teams with a dragon in play, one such team)."""
    seen = 0
    last = -1
    mask = 0
    for i in range(nd):
        if ds[i, F_ALIVE] == 1:
            t = ds[i, F_TEAM]
            if (mask >> t) & 1 == 0:
                mask |= 1 << t
                seen += 1
                last = t
    return seen, last


@game_fn
def begin_game(ds, nd, run, w, cnt, log):
    """ "Setting Up" (p.6): state rows from the sheets, each dragon's planning breadth, the
    placement (:func:`place_dragons`)."""
    dragons, opt, tb = run.dragons, run.opt, run.tb
    scal = tb.scalars
    init_dragons(ds, dragons, tb, opt)
    samples = opt[OPT_PLAN_SAMPLES]
    for i in range(nd):
        ds[i, F_SAMPLES] = dragons[i, D_SAMPLES] if dragons[i, D_SAMPLES] > 0 else samples
    place_dragons(
        ds,
        nd,
        run,
        w.sst,
        cnt,
        scal[S_BOARD_WIDTH],
        scal[S_BOARD_DEPTH],
        scal[S_ALTITUDE_LEVELS],
        w.order,
        w.key,
    )
    if log is not None:
        for i in range(nd):
            k = log_row(log, ds, 0, K_SETUP, i, -1)
            if k >= 0:
                log.rows[k, L_A] = ds[i, F_LAST]


guard(sys.modules[__name__])
