"""The Dragon Lords game engine (basic rules, rulebook pages 6-14) as one numba kernel.

Layers (DESIGN.md "three tiers"):

* rules mechanics -- small ``@njit`` functions that take the dice as arguments (initiative
  ordering, speed limits, moves, breath attacks, close combat, damage and serious damage), so a
  test can force any dice (the Example of Play) and a pure-Python reference
  (:mod:`dragonsim.lords.reference`) can be fed the same numbers;
* :func:`play_game` -- one whole game from its own random streams;
* :func:`duel_kernel` -- the one top-level ``parallel=True`` kernel: ``prange`` over chunks of
  games, each chunk owning a row of a 2-D counter array, summed at the end.

Everything a study may vary arrives as an argument: the rules tables
(:class:`dragonsim.lords.tables.KernelTables`), the move tables (:func:`move_tables`), the
planning odds (:func:`dragonsim.lords.policies.plan_table`), the dragons and an int64
``options`` array indexed by the ``OPT_*`` constants -- the one place where rules options
(including those the advanced-rules issue will add) go.

Movement, precomputed
---------------------
A move is forward steps (1 point; climbing costs 2, diving 0, one level per hex) and turns
(maneuver-diagram cost; never two in a row; at most 180 degrees). Climbs and dives only change
what a forward step costs, so a move that flies ``H`` hexes, turns for ``T`` points and changes
altitude by ``dalt`` levels costs ``H + T + dalt``, and is possible whenever ``|dalt| <= H``
(levels can be interleaved to stay within Very Low..Very High whenever start and end are).
:func:`move_tables` therefore enumerates once, per maneuverability rating and *geometric budget*
``b = H + T``, every end state (offset, facing, hexes flown capped at 4) with one legal path (the
most compact one: smallest greatest distance from the start), and that path's bounding box in
offset-row coordinates for all six facings, so the board-edge check is six comparisons. A move
of speed ``s`` with altitude change ``dalt`` is an entry of budget ``s - dalt``.

No reference counting in a game
-------------------------------
Every function a game calls (here, in :mod:`~dragonsim.lords.policies` and
:mod:`~dragonsim.lords.hexes`) is compiled with ``_nrt=False``: none of them allocates, and
without it numba increments and decrements the reference count of every array argument on
every call (30 atomic operations per ``choose_move``), which cost about a fifth of a hunter
turn. Only the kernels that allocate (``duel_kernel``, ``logged_game``, the table builders)
keep numba's runtime; an allocation added to a game function fails to compile, loudly.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit, prange

from .. import _kernels, _llvm, defaults
from .. import random as _random
from .._kernels import guard_caches
from ..random import STREAM_GAME, STREAM_POLICY, STREAM_SETUP, below, d6, roll, seed_stream
from . import hexes, mechanics, movetables, state, tables
from .bots import dispatch as bots_dispatch
from .bots import plan as bots_plan
from .bots import planner as bots_planner
from .bots import random as bots_random
from .bots.dispatch import (
    choose_engage,
    choose_facing,
    choose_move,
    choose_side,
    choose_speed,
    choose_target,
)
from .bots.plan import geometry_table
from .hexes import direction_template
from .mechanics import (
    apply_move,
    breath_hit,
    can_engage,
    cc_begin,
    cc_modifier,
    cc_winner,
    record_speed,
    refresh,
    resolve_breath,
    resolve_close_combat,
    speed_limits,
    target_number,
)
from .state import (
    C_BREATH_HITS,
    C_BREATHS,
    C_CC,
    C_DEALT,
    C_DEALT_SQ,
    C_DICE,
    C_DRAWS,
    C_ENGAGES,
    C_GAMES,
    C_LEFT_BOARD,
    C_LOC,
    C_TN_HITS,
    C_TN_TRIES,
    C_TURN_HIST,
    C_TURN_LIMIT,
    C_TURNS,
    C_TURNS_SQ,
    C_WIN,
    D_BODY,
    D_BREATH,
    D_CLAWS,
    D_MR,
    D_POLICY,
    D_RIDER,
    D_SAMPLES,
    D_TEAM,
    D_WINGS,
    F_ALIVE,
    F_ALT,
    F_BODY,
    F_BREATH,
    F_BREATH0,
    F_CLAW,
    F_CLAW0,
    F_COOL,
    F_DEALT,
    F_DP,
    F_DP0,
    F_ENG,
    F_F,
    F_HITS,
    F_INIT,
    F_LAST,
    F_LEFT,
    F_MAX,
    F_MAX0,
    F_MIN,
    F_MOVED,
    F_MR,
    F_MR0,
    F_POLICY,
    F_Q,
    F_R,
    F_RIDER,
    F_SAMPLES,
    F_SPEED,
    F_STREAK,
    F_TARGET,
    F_TEAM,
    F_TOHIT,
    F_WINGS,
    HIST_MAX,
    K_CC,
    K_END,
    K_ENGAGE,
    K_LEAVE,
    K_MOVE,
    K_SETUP,
    K_SPEED,
    K_TARGET,
    L_A,
    L_I,
    L_J,
    L_KIND,
    L_SNAP,
    L_TURN,
    MAXD,
    N_COUNTERS,
    N_LOG,
    N_REC,
    N_SNAP,
    NF,
    OPT_INIT_MOD,
    OPT_PLAN_SAMPLES,
    OPT_RANGE_MOD,
    OPT_SETUP,
    OPT_TURN_LIMIT,
    R_DEALT0,
    R_DEALT1,
    R_ENGAGES,
    R_HITS0,
    R_HITS1,
    R_LEFT0,
    R_LEFT1,
    R_TURN_LIMIT,
    R_TURNS,
    R_WINNER,
    SC_ALT,
    SC_F,
    SC_Q,
    SC_R,
    SC_SPEED,
)
from .tables import (
    S_ALTITUDE_LEVELS,
    S_AUTO_HIT,
    S_AUTO_MISS,
    S_BASE_TO_HIT,
    S_BOARD_DEPTH,
    S_BOARD_WIDTH,
    S_CC_SELF_DAMAGE_DICE,
    S_HEAD_POINTS,
    S_MAX_RANGE,
    S_TAIL_POINTS,
)

# =================================================================================================
# setup
# =================================================================================================


@njit(cache=True, _nrt=False)
def init_dragons(
    ds,
    dragons,
    tb_min_speed,
    tb_max_speed,
    tb_dp_body,
    tb_dp_wing,
    tb_wing_tohit,
    tb_body_tohit,
    scal,
):
    """Fill each dragon's state row from its sheet row (``dragons``: int64 [nd, N_DCOLS])."""
    nd = dragons.shape[0]
    for i in range(ds.shape[0]):
        for k in range(NF):
            ds[i, k] = 0
        ds[i, F_ENG] = -1
        ds[i, F_TARGET] = -1
        if i >= nd:
            continue
        body = dragons[i, D_BODY]
        wings = dragons[i, D_WINGS]
        ds[i, F_ALIVE] = 1
        ds[i, F_TEAM] = dragons[i, D_TEAM]
        ds[i, F_POLICY] = dragons[i, D_POLICY]
        ds[i, F_BODY] = body
        ds[i, F_WINGS] = wings
        ds[i, F_BREATH0] = dragons[i, D_BREATH]
        ds[i, F_CLAW0] = dragons[i, D_CLAWS]
        ds[i, F_MR0] = dragons[i, D_MR]
        ds[i, F_RIDER] = dragons[i, D_RIDER]
        ds[i, F_MIN] = tb_min_speed[body]
        ds[i, F_MAX0] = tb_max_speed[wings]
        ds[i, F_LAST] = -1
        ds[i, F_TOHIT] = tb_wing_tohit[wings] + tb_body_tohit[body]
        pts = (
            scal[S_HEAD_POINTS],
            tb_dp_body[body],
            scal[S_TAIL_POINTS],
            tb_dp_wing[wings],
            tb_dp_wing[wings],
        )
        for p in range(5):
            ds[i, F_DP + p] = pts[p]
            ds[i, F_DP0 + p] = pts[p]
        refresh(ds, i, scal)


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def _order_by_rolls(order, key, n, st, cnt):
    """Sort ``order[:n]`` by ``key`` ascending, rolling 2d6 again within ties ("roll off as many
    times as is necessary")."""
    while True:
        # insertion sort by key
        for a in range(1, n):
            k = key[a]
            o = order[a]
            b = a - 1
            while b >= 0 and key[b] > k:
                key[b + 1] = key[b]
                order[b + 1] = order[b]
                b -= 1
            key[b + 1] = k
            order[b + 1] = o
        tie = False
        for a in range(1, n):
            if key[a] == key[a - 1]:
                tie = True
        if not tie:
            return
        # re-key by rank (x16) and add a fresh 2d6 inside each tied group
        mask = 0
        for a in range(n):
            if (a > 0 and key[a] == key[a - 1]) or (a + 1 < n and key[a] == key[a + 1]):
                mask |= 1 << a
        rank = 0
        prev = key[0]
        for a in range(n):
            if key[a] != prev:
                rank += 1
                prev = key[a]
            key[a] = rank * 16
        for a in range(n):
            if (mask >> a) & 1:
                key[a] += roll(st, 2)
                cnt[C_DICE] += 2


@njit(cache=True, _nrt=False)
def setup(ds, nd, scen, opt, sst, cnt, width, depth, alt_levels, order, key):
    """Place the dragons: "Have each player roll 2d6. In the order of the dice rolls, lowest to
    highest, each player places his or her dragon in a hex along any edge of the map." Altitude
    is chosen secretly (uniformly by every bot); the first-turn speed is free.

    Placement (RULES-GAPS: the rulebook leaves where on the edge to the players): the first
    placer takes a uniformly random edge hex, facing inward; in a duel the second is placed
    "directly across the map" as in the Example of Play; with more dragons, teammates of the
    first placer share its edge, the other team of a two-team game takes the opposite edge,
    and free-for-all dragons take random free edge hexes.
    """
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
        key[i] = roll(sst, 2)
    _order_by_rolls(order, key, nd, sst, cnt)
    first = order[0]
    edge0 = below(sst, 4)
    n0 = depth if edge0 < 2 else width
    k0 = below(sst, n0)
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
                    edge = below(sst, 4)
                n = depth if edge < 2 else width
                q, r, f = _edge_hex(edge, below(sst, n), width, depth)
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
        ds[i, F_ALT] = 1 + below(sst, alt_levels)


# =================================================================================================
# one game
# =================================================================================================


@njit(cache=True, _nrt=False)
def _log(log, nlog, ds, turn, kind, i, j, vals):
    k = nlog[0]
    if k >= log.shape[0]:
        return
    log[k, L_TURN] = turn
    log[k, L_KIND] = kind
    log[k, L_I] = i
    log[k, L_J] = j
    for m in range(len(vals)):
        log[k, L_A + m] = vals[m]
    for d in range(ds.shape[0]):
        base = L_SNAP + N_SNAP * d
        log[k, base + 0] = ds[d, F_Q]
        log[k, base + 1] = ds[d, F_R]
        log[k, base + 2] = ds[d, F_F]
        log[k, base + 3] = ds[d, F_ALT]
        log[k, base + 4] = ds[d, F_ALIVE]
        log[k, base + 5] = ds[d, F_ENG]
        log[k, base + 6] = ds[d, F_MOVED]
    nlog[0] = k + 1


@njit(cache=True, _nrt=False)
def _teams_alive(ds, nd):
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


@njit(cache=True, _nrt=False)
def play_game(
    game,
    seed,
    nd,
    dragons,
    scen,
    opt,
    tb_turn_cost,
    tb_cc_by_mr,
    tb_init_mod,
    tb_weapon,
    tb_alloc,
    tb_wing_tohit,
    tb_body_tohit,
    tb_arc,
    range_mod,
    tb_alt_mod,
    tb_min_speed,
    tb_max_speed,
    tb_dp_body,
    tb_dp_wing,
    tb_accel_wings,
    scal,
    mv,
    plan,
    gst,
    pst,
    sst,
    dsfull,
    order,
    key,
    pending,
    scratch,
    cnt,
    rec,
    rrow,
    log,
    nlog,
    geo,
):
    """Play game number ``game`` to the end and add it to the counters ``cnt`` (int64 row).

    ``geo`` is the planners' geometry table (:func:`~dragonsim.lords.bots.plan.geometry_table`).

    ``ds`` (int64 [MAXD, NF]), ``order``/``key`` (int64 [MAXD]), ``pending`` (int64 [MAXD, 5]),
    ``scratch`` and the three uint64[1] stream states are per-chunk scratch. ``rec`` (int64
    [m, N_REC]) receives row ``rrow`` when ``rrow >= 0``; ``log`` (int64 [k, N_LOG]) receives
    every decision while ``nlog[0] < k`` (tests).
    """
    ds = dsfull[:nd]  # loops over dragons run over the ones in this game only
    seed_stream(gst, seed, game, STREAM_GAME)
    seed_stream(pst, seed, game, STREAM_POLICY)
    seed_stream(sst, seed, game, STREAM_SETUP)
    (
        mv_off,
        mv_dq,
        mv_dr,
        mv_f,
        mv_h,
        mv_rq,
        mv_rr,
        mv_box,
        mv_pk,
        mv_pe,
        mv_inv,
        mv_tg,
        mv_tg_off,
    ) = mv
    width = scal[S_BOARD_WIDTH]
    depth = scal[S_BOARD_DEPTH]
    alt_levels = scal[S_ALTITUDE_LEVELS]
    base = scal[S_BASE_TO_HIT]
    max_range = scal[S_MAX_RANGE]
    auto_miss = scal[S_AUTO_MISS]
    auto_hit = scal[S_AUTO_HIT]
    self_dice = scal[S_CC_SELF_DAMAGE_DICE]
    samples = opt[OPT_PLAN_SAMPLES]
    init_dragons(
        ds,
        dragons,
        tb_min_speed,
        tb_max_speed,
        tb_dp_body,
        tb_dp_wing,
        tb_wing_tohit,
        tb_body_tohit,
        scal,
    )
    for i in range(nd):
        ds[i, F_SAMPLES] = dragons[i, D_SAMPLES] if dragons[i, D_SAMPLES] > 0 else samples
    setup(ds, nd, scen, opt, sst, cnt, width, depth, alt_levels, order, key)
    if nlog[0] < log.shape[0]:
        for i in range(nd):
            _log(log, nlog, ds, 0, K_SETUP, i, -1, (ds[i, F_LAST],))
    engages = 0
    turn = 0
    winner = -1
    limit_hit = 0
    nteams, last_team = _teams_alive(ds, nd)
    while True:
        if nteams <= 1:
            winner = last_team if nteams == 1 else -1
            break
        if turn >= opt[OPT_TURN_LIMIT]:
            limit_hit = 1
            winner = -1
            break
        turn += 1
        # ---- 1. initiative: 2d6 each, lowest moves first, roll-offs for ties
        na = 0
        for i in range(nd):
            ds[i, F_MOVED] = 0
            ds[i, F_ENG] = -1
            ds[i, F_TARGET] = -1
            if ds[i, F_ALIVE] == 1:
                order[na] = i
                key[na] = roll(gst, 2) * 16
                cnt[C_DICE] += 2
                if opt[OPT_INIT_MOD] == 1:
                    key[na] += 16 * tb_init_mod[ds[i, F_MR]]
                na += 1
        _order_by_rolls(order, key, na, gst, cnt)
        for k in range(na):
            ds[order[k], F_INIT] = k
        # ---- 2. record speed (secretly: all choose before anyone moves)
        for k in range(na):
            i = order[k]
            lo, hi = speed_limits(ds, i, scal, tb_accel_wings, opt)
            s = choose_speed(ds[i, F_POLICY], ds, i, lo, hi, pst)
            if nlog[0] < log.shape[0]:
                _log(
                    log,
                    nlog,
                    ds,
                    turn,
                    K_SPEED,
                    i,
                    -1,
                    (
                        s,
                        ds[i, F_LAST],
                        ds[i, F_STREAK],
                        ds[i, F_COOL],
                        ds[i, F_MIN],
                        ds[i, F_MAX],
                        ds[i, F_DP + 3],
                        ds[i, F_DP + 4],
                        ds[i, F_DP0 + 3],
                        ds[i, F_DP0 + 4],
                    ),
                )
            record_speed(ds, i, s, scal)
        # ---- 3. movement in initiative order, engagement after each move
        for k in range(na):
            i = order[k]
            if ds[i, F_ALIVE] == 0:
                continue
            e, dalt = choose_move(
                ds[i, F_POLICY],
                ds,
                i,
                ds[i, F_SPEED],
                mv_off,
                mv_h,
                mv_rq,
                mv_rr,
                mv_box,
                mv_pk,
                mv_pe,
                mv_inv,
                mv_tg,
                mv_tg_off,
                plan,
                base,
                tb_alt_mod,
                max_range,
                width,
                depth,
                alt_levels,
                tb_cc_by_mr,
                self_dice,
                ds[i, F_SAMPLES],
                pst,
                scratch,
                geo,
            )
            if e < 0:
                # no move stays on the board: the dragon flies off and is out of the game
                if nlog[0] < log.shape[0]:
                    _log(log, nlog, ds, turn, K_LEAVE, i, -1, (ds[i, F_SPEED], ds[i, F_MR]))
                ds[i, F_ALIVE] = 0
                ds[i, F_LEFT] = 1
                ds[i, F_MOVED] = 1
                cnt[C_LEFT_BOARD] += 1
                continue
            if nlog[0] < log.shape[0]:
                f0 = ds[i, F_F]
                _log(
                    log,
                    nlog,
                    ds,
                    turn,
                    K_MOVE,
                    i,
                    -1,
                    (
                        ds[i, F_SPEED],
                        ds[i, F_MR],
                        ds[i, F_Q] + mv_rq[e, f0],
                        ds[i, F_R] + mv_rr[e, f0],
                        (f0 + mv_f[e]) % 6,
                        ds[i, F_ALT] + dalt,
                    ),
                )
            apply_move(ds, i, e, dalt, mv_rq, mv_rr, mv_f)
            j = choose_engage(
                ds[i, F_POLICY],
                ds,
                i,
                plan,
                base,
                tb_arc,
                range_mod,
                tb_alt_mod,
                max_range,
                tb_cc_by_mr,
                self_dice,
                pst,
            )
            if j >= 0 and can_engage(ds, i, j):
                if nlog[0] < log.shape[0]:
                    _log(log, nlog, ds, turn, K_ENGAGE, i, j, (0,))
                ds[i, F_ENG] = j
                ds[j, F_ENG] = i
                engages += 1
                cnt[C_ENGAGES] += 1
        nteams, last_team = _teams_alive(ds, nd)
        if nteams <= 1:
            continue
        # ---- 4. record breath targets (before anyone breathes)
        for k in range(na):
            i = order[k]
            if ds[i, F_ALIVE] == 1:
                t = choose_target(
                    ds[i, F_POLICY],
                    ds,
                    i,
                    plan,
                    base,
                    tb_arc,
                    range_mod,
                    tb_alt_mod,
                    max_range,
                    pst,
                )
                ds[i, F_TARGET] = t
                if nlog[0] < log.shape[0] and t >= 0:
                    _log(log, nlog, ds, turn, K_TARGET, i, t, (0,))
        # ---- 5. breath combat: simultaneous. Damage points are ticked off as each attack is
        # rolled (in initiative order, like the Example of Play), but serious damage effects and
        # removals wait until every dragon has breathed, so a wounded dragon "still gets to make
        # its own attack" at full strength.
        for k in range(na):
            a = order[k]
            t = ds[a, F_TARGET]
            if t < 0 or ds[a, F_ALIVE] == 0:
                continue
            tn = target_number(
                ds,
                a,
                t,
                ds[a, F_Q],
                ds[a, F_R],
                ds[a, F_F],
                ds[a, F_ALT],
                base,
                tb_arc,
                range_mod,
                tb_alt_mod,
                max_range,
            )
            if tn < 0:
                continue  # a recorded target that cannot be breathed at: the breath is wasted
            hr = roll(gst, 2)
            cnt[C_DICE] += 2
            cnt[C_BREATHS] += 1
            ti = tn if tn < 32 else 31
            cnt[C_TN_TRIES + ti] += 1
            if not breath_hit(hr, tn, auto_miss, auto_hit):
                continue
            cnt[C_TN_HITS + ti] += 1
            cnt[C_BREATH_HITS] += 1
            ds[a, F_HITS] += 1
            s1, s2 = direction_template(ds[a, F_Q], ds[a, F_R], ds[t, F_Q], ds[t, F_R], ds[t, F_F])
            side = s1
            if s2 >= 0:
                side = choose_side(ds[a, F_POLICY], ds, t, s1, s2, tb_alloc, pst)
            lr = roll(gst, 2)
            nd6 = tb_weapon[ds[a, F_BREATH], 0]
            dr_ = roll(gst, nd6)
            cnt[C_DICE] += 2 + nd6
            part = resolve_breath(ds, a, t, side, lr, dr_, tb_alloc, tb_weapon)
            cnt[C_LOC + 5 * side + part] += 1
        for i in range(nd):
            refresh(ds, i, scal)
        nteams, last_team = _teams_alive(ds, nd)
        if nteams <= 1:
            continue
        # ---- 6. close combat for each engaged pair
        for k in range(na):
            a = order[k]
            b = ds[a, F_ENG]
            if b < 0 or ds[b, F_INIT] < ds[a, F_INIT]:
                continue  # not engaged, or resolved when the earlier dragon came up
            if ds[a, F_ALIVE] == 0 or ds[b, F_ALIVE] == 0:
                continue
            cc_begin(ds, a, b, scal)
            ra = roll(gst, 2)
            rb = roll(gst, 2)
            cnt[C_DICE] += 4
            w = cc_winner(ds, a, b, ra, rb, tb_cc_by_mr, scal, opt)
            di = (
                cc_modifier(ds, a, tb_cc_by_mr, scal, opt)
                - cc_modifier(ds, b, tb_cc_by_mr, scal, opt)
                + 20
            )
            if di < 0:
                di = 0
            if di > 40:
                di = 40
            if w < 0:
                cnt[C_CC + 3 * di + 1] += 1
                if nlog[0] < log.shape[0]:
                    _log(log, nlog, ds, turn, K_CC, a, b, (-1,))
                continue
            cnt[C_CC + 3 * di + (0 if w == a else 2)] += 1
            lo_ = b if w == a else a
            col = d6(gst) - 1
            lr = roll(gst, 2)
            nd6 = tb_weapon[ds[w, F_CLAW], 0]
            dr_ = roll(gst, nd6)
            sd = roll(gst, self_dice)
            fr = d6(gst) - 1
            cnt[C_DICE] += 1 + 2 + nd6 + self_dice + 1
            wf = choose_facing(ds[w, F_POLICY], ds, w, lo_, pst) % 6
            resolve_close_combat(
                ds, w, lo_, col, lr, dr_, sd, fr, wf, tb_alloc, tb_weapon, scal, opt
            )
            if nlog[0] < log.shape[0]:
                _log(log, nlog, ds, turn, K_CC, a, b, (w,))
        nteams, last_team = _teams_alive(ds, nd)
    # ---- the end
    cnt[C_GAMES] += 1
    if winner < 0:
        cnt[C_DRAWS] += 1
    else:
        cnt[C_WIN + winner] += 1
    cnt[C_TURN_LIMIT] += limit_hit
    cnt[C_TURNS] += turn
    cnt[C_TURNS_SQ] += turn * turn
    cnt[C_TURN_HIST + (turn if turn < HIST_MAX else HIST_MAX)] += 1
    for i in range(nd):
        cnt[C_DEALT + i] += ds[i, F_DEALT]
        cnt[C_DEALT_SQ + i] += ds[i, F_DEALT] * ds[i, F_DEALT]
    if nlog[0] < log.shape[0]:
        _log(log, nlog, ds, turn, K_END, winner, limit_hit, (0,))
    if rrow >= 0:
        rec[rrow, R_WINNER] = winner
        rec[rrow, R_TURNS] = turn
        rec[rrow, R_TURN_LIMIT] = limit_hit
        rec[rrow, R_DEALT0] = ds[0, F_DEALT]
        rec[rrow, R_DEALT1] = ds[1, F_DEALT]
        l0 = 0
        l1 = 0
        for p in range(5):
            l0 += ds[0, F_DP + p]
            l1 += ds[1, F_DP + p]
        rec[rrow, R_LEFT0] = l0
        rec[rrow, R_LEFT1] = l1
        rec[rrow, R_HITS0] = ds[0, F_HITS]
        rec[rrow, R_HITS1] = ds[1, F_HITS]
        rec[rrow, R_ENGAGES] = engages


# =================================================================================================
# the kernel
# =================================================================================================


@njit(cache=True, parallel=True)
def duel_kernel(
    start,
    stop,
    seed,
    dragons,
    scen,
    opt,
    tb_turn_cost,
    tb_cc_by_mr,
    tb_init_mod,
    tb_weapon,
    tb_alloc,
    tb_wing_tohit,
    tb_body_tohit,
    tb_arc,
    tb_range_mod,
    tb_alt_mod,
    tb_min_speed,
    tb_max_speed,
    tb_dp_body,
    tb_dp_wing,
    tb_accel_wings,
    scal,
    mv,
    plan,
    rec,
):
    """Play games ``start..stop-1`` and return their counters.

    Parameters
    ----------
    start, stop, seed : int
        Game indices and the run's seed (each game has its own streams).
    dragons : int64 [nd, N_DCOLS]
        Sheet rows (body, wings, breath, claws, rider, MR, team, policy id).
    scen : int64 [nd, 5]
        Scenario rows (used when ``opt[OPT_SETUP] == 1``).
    opt : int64 [N_OPT]
        Rules options, see ``OPT_*``.
    tb_* : int64 arrays
        The rules tables (:class:`~dragonsim.lords.tables.KernelTables` fields).
    scal : int64 [N_SCALARS]
    mv : MoveTables
    plan : float64 [N_PLAN_ROWS, PLAN_WIDTH]
    rec : int64 [stop - start, N_REC] or [0, N_REC]
        Per-game records, filled when it has a row per game.

    Returns
    -------
    int64 [N_COUNTERS]
    """
    n = stop - start
    nchunks = min(max(1, n // 64), 1024)
    if n <= 0:
        nchunks = 1
    out = np.zeros((nchunks, N_COUNTERS), dtype=np.int64)
    nd = dragons.shape[0]
    range_mod = tb_range_mod.copy()
    if opt[OPT_RANGE_MOD] == 0:
        range_mod[:] = 0
    want_rec = rec.shape[0] == n
    geo = geometry_table(
        tb_arc, range_mod, scal[S_MAX_RANGE], scal[S_BOARD_WIDTH], scal[S_BOARD_DEPTH]
    )
    for c in prange(nchunks):
        a = start + (n * c) // nchunks
        b = start + (n * (c + 1)) // nchunks
        gst = np.zeros(1, np.uint64)
        pst = np.zeros(1, np.uint64)
        sst = np.zeros(1, np.uint64)
        ds = np.zeros((MAXD, NF), np.int64)
        order = np.zeros(MAXD, np.int64)
        key = np.zeros(MAXD, np.int64)
        pending = np.zeros((MAXD, 5), np.int64)
        scratch = np.zeros(10 * MAXD, np.int64)
        log = np.zeros((0, N_LOG), np.int64)
        nlog = np.zeros(1, np.int64)
        row = out[c]
        for g in range(a, b):
            rrow = g - start if want_rec else -1
            play_game(
                g,
                seed,
                nd,
                dragons,
                scen,
                opt,
                tb_turn_cost,
                tb_cc_by_mr,
                tb_init_mod,
                tb_weapon,
                tb_alloc,
                tb_wing_tohit,
                tb_body_tohit,
                tb_arc,
                range_mod,
                tb_alt_mod,
                tb_min_speed,
                tb_max_speed,
                tb_dp_body,
                tb_dp_wing,
                tb_accel_wings,
                scal,
                mv,
                plan,
                gst,
                pst,
                sst,
                ds,
                order,
                key,
                pending,
                scratch,
                row,
                rec,
                rrow,
                log,
                nlog,
                geo,
            )
    return out.sum(axis=0)


@njit(cache=True)
def logged_game(
    game,
    seed,
    dragons,
    scen,
    opt,
    tb_turn_cost,
    tb_cc_by_mr,
    tb_init_mod,
    tb_weapon,
    tb_alloc,
    tb_wing_tohit,
    tb_body_tohit,
    tb_arc,
    tb_range_mod,
    tb_alt_mod,
    tb_min_speed,
    tb_max_speed,
    tb_dp_body,
    tb_dp_wing,
    tb_accel_wings,
    scal,
    mv,
    plan,
    max_log,
):
    """Play one game (serially) and return ``(counters, log)``; the log has one row per
    decision (``K_*`` kinds) for the legality checker."""
    nd = dragons.shape[0]
    range_mod = tb_range_mod.copy()
    if opt[OPT_RANGE_MOD] == 0:
        range_mod[:] = 0
    gst = np.zeros(1, np.uint64)
    pst = np.zeros(1, np.uint64)
    sst = np.zeros(1, np.uint64)
    ds = np.zeros((MAXD, NF), np.int64)
    order = np.zeros(MAXD, np.int64)
    key = np.zeros(MAXD, np.int64)
    pending = np.zeros((MAXD, 5), np.int64)
    scratch = np.zeros(10 * MAXD, np.int64)
    log = np.zeros((max_log, N_LOG), np.int64)
    nlog = np.zeros(1, np.int64)
    cnt = np.zeros(N_COUNTERS, np.int64)
    rec = np.zeros((0, N_REC), np.int64)
    play_game(
        game,
        seed,
        nd,
        dragons,
        scen,
        opt,
        tb_turn_cost,
        tb_cc_by_mr,
        tb_init_mod,
        tb_weapon,
        tb_alloc,
        tb_wing_tohit,
        tb_body_tohit,
        tb_arc,
        range_mod,
        tb_alt_mod,
        tb_min_speed,
        tb_max_speed,
        tb_dp_body,
        tb_dp_wing,
        tb_accel_wings,
        scal,
        mv,
        plan,
        gst,
        pst,
        sst,
        ds,
        order,
        key,
        pending,
        scratch,
        cnt,
        rec,
        -1,
        log,
        nlog,
        geometry_table(
            tb_arc, range_mod, scal[S_MAX_RANGE], scal[S_BOARD_WIDTH], scal[S_BOARD_DEPTH]
        ),
    )
    return cnt, log[: nlog[0]]


_bots = sys.modules[f"{__package__}.bots"]
guard_caches(
    sys.modules[__name__],
    [
        state,
        movetables,
        mechanics,
        _bots,
        bots_dispatch,
        bots_plan,
        bots_planner,
        bots_random,
        hexes,
        tables,
        _random,
        _llvm,
        _kernels,
        defaults,
    ],
)


def kernel_args(tables) -> tuple:
    """The rules-table arguments of :func:`duel_kernel`, in order, from ``KernelTables``."""
    t = tables
    return (
        t.turn_cost,
        t.cc_by_mr,
        t.init_mod,
        t.weapon,
        t.alloc,
        t.wing_tohit,
        t.body_tohit,
        t.arc,
        t.range_mod,
        t.alt_mod,
        t.min_speed,
        t.max_speed,
        t.dp_body,
        t.dp_wing,
        t.accel_wings,
        t.scalars,
    )


__all__ = ["duel_kernel", "logged_game", "play_game", "kernel_args"]
