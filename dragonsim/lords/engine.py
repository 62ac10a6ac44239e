"""The Dragon Lords game loop (basic rules, rulebook pp. 6-14) and its numba kernels.

A game is the basic sequence of play ("Initiative, Record Speed, Movement, Record Breath
Targets, Breath Combat, Close Combat", p.7), one function per phase, in that order:

* :func:`begin_game` -- the sheets become state rows and the dragons are placed (p.6);
* :func:`initiative` -- 2d6 each, lowest moves first, roll-offs within ties;
* :func:`record_speeds` -- every dragon records its speed before anyone moves;
* :func:`movement` -- moves in initiative order, each followed by an optional engagement;
* :func:`record_targets` -- every dragon records its breath target before anyone breathes;
* :func:`breath_combat` -- the breath attacks, serious damage applied when all have breathed;
* :func:`close_combat` -- each engaged pair fights;
* :func:`end_game` -- the game's counters and its record.

:func:`play_game` runs them in turn; an advanced-rules phase (riders' actions, spells, the
ground) stands beside its basic one and is switched on by an ``OPT_*`` option. The rules
mechanics each phase applies are in :mod:`~dragonsim.lords.game.mechanics`, the decisions are the
bots' (:mod:`~dragonsim.lords.bots.dispatch`), and the layouts of every array are in
:mod:`~dragonsim.lords.game.state`.

Everything a study may vary arrives as an argument: the rules tables ``tb``
(:class:`~dragonsim.lords.game.tables.KernelTables`), the move tables ``mv``
(:class:`~dragonsim.lords.game.movetables.MoveTables`), the planning odds
(:func:`~dragonsim.lords.bots.plan.plan_table`), the dragons and the int64 options array
(``OPT_*``), the one place where rules options go.

:func:`duel_kernel` plays a block of games: they are cut into chunks
(:func:`dragonsim._kernels.n_chunks`), each owning a row of a 2-D counter array, played by
:func:`play_chunks` on a few threads without the GIL, and summed at the end;
:func:`logged_game` plays one game serially with its decision log (tests).

No reference counting in a game: every function a game calls is a
:func:`~dragonsim._kernels.game_fn` (it allocates nothing); only the kernels that allocate
(``duel_kernel``, ``logged_game``, the table builders) keep numba's runtime.
"""

from __future__ import annotations

import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

import numba
import numpy as np
from numba import njit

from .. import _kernels, _llvm, defaults
from .. import random as _random
from .._kernels import chunk_bounds, game_fn, guard_caches, n_chunks
from ..random import STREAM_GAME, STREAM_POLICY, STREAM_SETUP, seed_stream
from . import bots as _bots
from .bots import FAMILIES, FAMILY_SEARCH
from .bots import dispatch as _dispatch
from .bots import plan as _plan
from .bots import planner as _planner
from .bots import random as _random_bot
from .bots import scripted as _scripted
from .bots import search as _search
from .bots import tactics as _tactics
from .bots.dispatch import (
    choose_early,
    choose_engage,
    choose_facing,
    choose_ground_move,
    choose_ground_speed,
    choose_land,
    choose_landing,
    choose_move,
    choose_rider_target,
    choose_side,
    choose_speed,
    choose_spell,
    choose_tactic,
    choose_target,
)
from .bots.plan import geometry_table
from .game import hexes, mechanics, movetables, state, tables
from .game.hexes import arc_area, direction_template, distance
from .game.mechanics import (
    apply_critical,
    apply_move,
    apply_spell_mr,
    breath_hit,
    can_engage,
    cc_begin,
    cc_modifier,
    cc_winner,
    crash_after_combat,
    crashes_by_damage,
    critical_effect,
    critical_rerolls,
    damage,
    distort_shift,
    draw_below,
    forced_turn,
    heal_part,
    hit_part,
    landing_hex,
    may_cast_at,
    may_shoot_at,
    record_speed,
    refresh,
    resolve_breath,
    resolve_close_combat,
    rider_at_risk,
    rider_check,
    rider_target_number,
    roll_d6,
    roll_dice,
    speed_limits,
    spell_target_number,
    stuck_on_ground,
    takeoff_limits,
    takeoff_path,
    target_number,
)
from .game.movetables import BK_CONT, BK_LL, BK_NB, BK_TURNED
from .game.state import (
    C_BANK_DROPS,
    C_BANKS,
    C_BOTH_DEFEND,
    C_BREATH_HITS,
    C_BREATHS,
    C_CC,
    C_CRASH_N,
    C_CRASH_SQ,
    C_CRASH_SUM,
    C_CRASHES,
    C_CRIT_CHANCES,
    C_CRIT_REROLLS,
    C_CRITS,
    C_DEALT,
    C_DEALT_SQ,
    C_DEFEND_WINS,
    C_DICE,
    C_DRAWS,
    C_EARLY,
    C_ENGAGES,
    C_FALL_CHECKS,
    C_FALL_KILLED,
    C_FUMBLE_CHANCES,
    C_FUMBLE_RIDER,
    C_FUMBLE_RIDER_KILLED,
    C_FUMBLES,
    C_GAMES,
    C_GROUND_ROLLS,
    C_GROUND_TURNS,
    C_HIT_LIMIT,
    C_LANDINGS,
    C_LEFT_BOARD,
    C_LOC,
    C_LUNGE,
    C_LUNGE_FACES,
    C_LUNGE_SUM,
    C_RIDER_CHECKS,
    C_RIDER_DEALT,
    C_RIDER_HITS,
    C_RIDER_KILLED,
    C_RIDER_TN_HITS,
    C_RIDER_TN_TRIES,
    C_RIDER_TRIES,
    C_SORE_LOST,
    C_SPELL_D6,
    C_SPELL_FX,
    C_SPELL_FX_SQ,
    C_SPELL_HITS,
    C_SPELL_LOST,
    C_SPELL_POINTS,
    C_SPELL_SELF,
    C_SPELL_SELF_HITS,
    C_SPELL_TN_HITS,
    C_SPELL_TN_TRIES,
    C_SPELLS,
    C_TACTIC_RESETS,
    C_TACTICS,
    C_TAKEOFF_POINTS,
    C_TAKEOFFS,
    C_TN_HITS,
    C_TN_TRIES,
    C_TURN_CARRIED,
    C_TURN_CONTINUED,
    C_TURN_HIST,
    C_TURN_LIMIT,
    C_TURNS,
    C_TURNS_SQ,
    C_WIN,
    CC_DIFF_MAX,
    CC_DIFF_ZERO,
    CE_DOUBLE,
    CE_NONE,
    CE_TRIPLE,
    CR_SLOW,
    CR_VERY_LOW,
    CR_ZEROED,
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
    F_ABSORBED,
    F_ALIVE,
    F_ALT,
    F_BODY,
    F_BREATH,
    F_BREATH0,
    F_CC_ADJ,
    F_CC_FACING,
    F_CLAW,
    F_CLAW0,
    F_COOL,
    F_DAZED,
    F_DEALT,
    F_DISTORT,
    F_DP,
    F_DP0,
    F_ENG,
    F_ENGAGER,
    F_F,
    F_HEALED,
    F_HIT_BY,
    F_HITS,
    F_INIT,
    F_LAST,
    F_LEFT,
    F_MAGIC,
    F_MAX,
    F_MAX0,
    F_MIN,
    F_MOVED,
    F_MR,
    F_MR0,
    F_POLICY,
    F_Q,
    F_QUICKEN,
    F_R,
    F_RIDER,
    F_RTARGET,
    F_SAMPLES,
    F_SARG,
    F_SHIELD,
    F_SLOW,
    F_SORE,
    F_SPEED,
    F_SPELL,
    F_SPELL_CLAW,
    F_SPELL_MR,
    F_SPENT,
    F_STARGET,
    F_STREAK,
    F_STUCK,
    F_TAC_USED,
    F_TACTIC,
    F_TARGET,
    F_TEAM,
    F_TOHIT,
    F_TURNED,
    F_WINGS,
    HIST_MAX,
    K_BREATH,
    K_CC,
    K_CRASH,
    K_EARLY,
    K_EFFECT,
    K_END,
    K_ENGAGE,
    K_INIT,
    K_LEAVE,
    K_MOVE,
    K_RIDER,
    K_RTARGET,
    K_SETUP,
    K_SPEED,
    K_SPELL,
    K_SPELL_REC,
    K_TARGET,
    L_A,
    L_I,
    L_J,
    L_KIND,
    L_SNAP,
    L_TURN,
    MAXD,
    MK_FLY,
    MK_GROUND,
    MK_LAND,
    MK_TAKE_OFF,
    N_COUNTERS,
    N_LOG,
    N_PARTS,
    N_REC,
    N_SNAP,
    N_TACTICS,
    N_TN,
    NF,
    OPT_CRASH_STUCK_EVERY,
    OPT_CRASH_VERY_LOW,
    OPT_CRASH_ZEROED,
    OPT_CRIT_IN_PLACE,
    OPT_CRITICALS,
    OPT_DEFEND_NO_TURN,
    OPT_FUMBLE_RIDER_ONLY,
    OPT_FUMBLES,
    OPT_HIT_LIMIT,
    OPT_HIT_LIMIT_LOW_FIRST,
    OPT_INIT_MOD,
    OPT_INIT_TIE_MODIFIED,
    OPT_LANDING,
    OPT_MOVE_EARLY,
    OPT_PLAN_SAMPLES,
    OPT_RANGE_MOD,
    OPT_RIDER_AT_ONCE,
    OPT_RIDER_ATTACKS,
    OPT_RIDER_HIT_NO_CHECK,
    OPT_SETUP,
    OPT_TACTICS,
    OPT_TURN_BETWEEN,
    OPT_TURN_CC_FACING,
    OPT_TURN_LIMIT,
    OPT_WIZARD,
    PART_BODY,
    PART_LEFT_WING,
    PART_RIGHT_WING,
    PART_TAIL,
    R_DEALT0,
    R_DEALT1,
    R_ENGAGES,
    R_FIRST,
    R_HITS0,
    R_HITS1,
    R_LEFT0,
    R_LEFT1,
    R_TURN_LIMIT,
    R_TURNS,
    R_WINNER,
    RIDER_WIZARD,
    RK_BREATH,
    RK_CLOSE_COMBAT,
    RK_RIDER,
    SC_ALT,
    SC_F,
    SC_Q,
    SC_R,
    SC_SPEED,
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
    TAC_DEFEND,
    TAC_LUNGE,
)
from .game.tables import (
    S_ALTITUDE_LEVELS,
    S_AUTO_HIT,
    S_AUTO_MISS,
    S_BASE_TO_HIT,
    S_BOARD_DEPTH,
    S_BOARD_WIDTH,
    S_CC_SELF_DAMAGE_DICE,
    S_CRASH_DICE_PER_LEVEL,
    S_CRIT_MAX_TARGET,
    S_DAZED_INIT,
    S_GROUND_MOVE_DICE,
    S_GROUND_MOVE_PLUS,
    S_HEAD_POINTS,
    S_HIT_LIMIT,
    S_LANDING_COST,
    S_MAGIC_POINTS,
    S_MAX_RANGE,
    S_RIDER_FALL_KILLS,
    S_TACTIC_RESET,
    S_TAIL_POINTS,
    S_TAKEOFF_OVER_MIN,
    SIDE_REAR,
    SX_BOLT_DICE,
    SX_BOLT_PLUS,
    SX_CLAW_STEPS,
    SX_FIREBALL_DICE,
    SX_FIREBALL_PLUS,
    SX_HEAL_DICE,
    SX_HEAL_PLUS,
    SX_MR_STEPS,
    SX_SHIELD,
)

#: initiative keys are rolls times this, so that a roll-off (2d6, at most 12) added within a
#: tied group orders the group without reaching the next roll
TIE_SCALE = 64
#: movement: the engagement is not chosen with the move, the bot is asked after moving
ASK_BOT = -2


class Work(NamedTuple):
    """Per-chunk scratch a game writes into (allocated once per chunk by the kernels)."""

    gst: np.ndarray  # uint64[1]: the game stream (the rules' dice)
    pst: np.ndarray  # uint64[1]: the policy stream (the bots' choices)
    sst: np.ndarray  # uint64[1]: the setup stream (placement)
    ds: np.ndarray  # int64 [MAXD, NF]: the dragon state rows
    order: np.ndarray  # int64 [MAXD]: this turn's initiative order
    key: np.ndarray  # int64 [2 * MAXD]: the initiative rolls being sorted, then each dragon's
    # initiative modifiers (for a roll-off under the reading lords.initiative_tie = modified)
    scratch: np.ndarray  # int64 [10 * MAXD]: the planners' per-decision records
    lp: np.ndarray  # float64 [LP_CELLS]: the tactics game's matrix and tableau (bots.tactics)


def new_work() -> Work:
    """Fresh :class:`Work` scratch for one caller of :func:`play_chunks` (a thread) or one
    logged game. Allocated here, in Python, so that the compiled game loop allocates nothing
    and can run without reference counting."""
    return Work(
        np.zeros(1, np.uint64),
        np.zeros(1, np.uint64),
        np.zeros(1, np.uint64),
        np.zeros((MAXD, NF), np.int64),
        np.zeros(MAXD, np.int64),
        np.zeros(2 * MAXD, np.int64),
        np.zeros(10 * MAXD, np.int64),
        np.zeros(_tactics.LP_CELLS, np.float64),
    )


# =================================================================================================
# setup
# =================================================================================================


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
        ds[i, F_POLICY] = dragons[i, D_POLICY]
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
def _order_by_rolls(order, key, n, st, cnt, mods, modified):
    """Sort ``order[:n]`` by ``key`` ascending, rolling 2d6 again within ties ("roll off as many
    times as is necessary"); with ``modified`` each roll-off adds ``mods[dragon]`` (the
    reading ``lords.initiative_tie = modified``: the initiative roll's own modifiers)."""
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
        # re-key by rank (x TIE_SCALE) and add a fresh 2d6 inside each tied group
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
            key[a] = rank * TIE_SCALE
        for a in range(n):
            if (mask >> a) & 1:
                key[a] += roll_dice(st, 2)
                cnt[C_DICE] += 2
                if modified:
                    # centred in its rank's room, so that no modifier reaches another rank
                    key[a] += TIE_SCALE // 2 + mods[order[a]]


@game_fn
def place_dragons(ds, nd, scen, opt, sst, cnt, width, depth, alt_levels, order, key):
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
    _order_by_rolls(order, key, nd, sst, cnt, key, False)
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


# =================================================================================================
# one game
# =================================================================================================


# =================================================================================================
# the decision log and the game state
# =================================================================================================


@game_fn
def log_row(log, nlog, ds, turn, kind, i, j):
    """Start the next decision-log row (``L_*``: turn, kind, the dragons, a snapshot of every
    dragon before the decision) and return its index, or -1 when the log is full (a plain
    duel passes a log of 0 rows). The caller writes the kind's values at ``L_A``."""
    k = nlog[0]
    if k >= log.shape[0]:
        return -1
    log[k, L_TURN] = turn
    log[k, L_KIND] = kind
    log[k, L_I] = i
    log[k, L_J] = j
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
    return k


@game_fn
def points_left(ds, i):
    """Dragon ``i``'s damage points left, all parts."""
    t = 0
    for p in range(N_PARTS):
        t += ds[i, F_DP + p]
    return t


#: the state columns a serious damage effect changes (p.12), as K_EFFECT rows log them
EFFECT_COLUMNS = (F_BREATH, F_CLAW, F_MR, F_MAX, F_ALIVE)


@game_fn
def log_effects_before(scratch, ds, i):
    """Keep dragon ``i``'s effect columns (:data:`EFFECT_COLUMNS`) in ``scratch`` (the
    planners' scratch, idle while a combat resolves) for :func:`log_effects`."""
    for c in range(5):
        scratch[5 * i + c] = ds[i, EFFECT_COLUMNS[c]]


@game_fn
def log_effects(log, nlog, scratch, ds, turn, i):
    """A K_EFFECT row for dragon ``i`` when a serious damage effect or its removal changed it
    since :func:`log_effects_before`."""
    changed = False
    for c in range(5):
        if ds[i, EFFECT_COLUMNS[c]] != scratch[5 * i + c]:
            changed = True
    if not changed:
        return
    r = log_row(log, nlog, ds, turn, K_EFFECT, i, -1)
    if r >= 0:
        for c in range(5):
            log[r, L_A + c] = ds[i, EFFECT_COLUMNS[c]]
            log[r, L_A + 5 + c] = scratch[5 * i + c]


@game_fn
def log_geometry(log, r, ds, a, t, arc):
    """A K_BREATH row's range and arc area (``L_A + 9``, ``L_A + 10``: the hexes from ``a``
    to ``t`` and the area of ``a``'s arc of fire ``t`` stands in, 0 dark 1 grey 2 light, -1
    out of arc; pp. 10-11), as the to-hit number counted them."""
    log[r, L_A + 9] = distance(ds[a, F_Q], ds[a, F_R], ds[t, F_Q], ds[t, F_R])
    log[r, L_A + 10] = arc_area(
        ds[a, F_Q], ds[a, F_R], ds[a, F_F], ds[t, F_Q], ds[t, F_R], arc[3], arc[4], arc[5]
    )


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


# =================================================================================================
# the phases, in the order of the sequence of play
# =================================================================================================


@game_fn
def begin_game(ds, nd, dragons, scen, opt, tb, w, cnt, log, nlog):
    """ "Setting Up" (p.6): state rows from the sheets, each dragon's planning breadth, the
    placement (:func:`place_dragons`)."""
    scal = tb.scalars
    init_dragons(ds, dragons, tb, opt)
    samples = opt[OPT_PLAN_SAMPLES]
    for i in range(nd):
        ds[i, F_SAMPLES] = dragons[i, D_SAMPLES] if dragons[i, D_SAMPLES] > 0 else samples
    place_dragons(
        ds,
        nd,
        scen,
        opt,
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
            k = log_row(log, nlog, ds, 0, K_SETUP, i, -1)
            if k >= 0:
                log[k, L_A] = ds[i, F_LAST]


@game_fn
def initiative(ds, nd, opt, tb, w, cnt):
    """ "1. Initiative" (p.7): "Each player rolls 2d6 ... Players with lower numbers move before
    players with higher ones", ties rolled off (:func:`_order_by_rolls`); with the optional
    rule (``OPT_INIT_MOD``, p.15) the roll is modified by maneuverability, and a dazed
    dragon's by -2 a daze (critical hits, optional rules, p.19). Also clears last turn's
    engagements and targets. Returns the number of dragons in play; ``w.order[:na]``
    is the order and ``F_INIT`` each dragon's place in it."""
    order = w.order
    key = w.key
    mods = w.key[MAXD:]  # each dragon's modifiers, for a modified roll-off
    na = np.int64(0)  # int64, not a literal (see play_game)
    for i in range(nd):
        ds[i, F_MOVED] = 0
        ds[i, F_ENG] = -1
        ds[i, F_ENGAGER] = -1
        ds[i, F_TARGET] = -1
        if ds[i, F_ALIVE] == 1:
            order[na] = i
            m = np.int64(0)
            if opt[OPT_INIT_MOD] == 1:
                m += tb.init_mod[ds[i, F_MR]]
            if ds[i, F_DAZED] > 0:
                # "Dazed! -2 to initiative roll for remainder of game" (optional rules, p.19)
                m += tb.scalars[S_DAZED_INIT] * ds[i, F_DAZED]
            mods[i] = m
            key[na] = (roll_dice(w.gst, 2) + m) * TIE_SCALE
            cnt[C_DICE] += 2
            na += 1
    _order_by_rolls(order, key, na, w.gst, cnt, mods, opt[OPT_INIT_TIE_MODIFIED] == 1)
    for k in range(na):
        ds[order[k], F_INIT] = k
    return na


@game_fn
def record_speeds(ds, na, opt, tb, w, cnt, turn, log, nlog):
    """ "2. Record Speed" (p.7), secretly: every dragon chooses within its limits
    (:func:`~dragonsim.lords.game.mechanics.speed_limits`) before anyone moves."""
    scal = tb.scalars
    for k in range(na):
        i = w.order[k]
        ground = ds[i, F_ALT] == 0
        if ground:
            # "If a dragon ended its turn on the ground last turn and it wants to remain on the
            # ground this turn, the player must note ground"; "A dragon taking off this turn
            # must record a speed of no less than its minimum speed plus 1 and no greater
            # than 7" (advanced rules, p.15): 0 is "ground"
            cnt[C_GROUND_TURNS] += 1
            lo, hi = takeoff_limits(ds, i, scal, opt)
            s = choose_ground_speed(
                ds[i, F_POLICY], ds, i, lo, hi, scal[S_BOARD_WIDTH], scal[S_BOARD_DEPTH], w.pst
            )
        else:
            lo, hi = speed_limits(ds, i, scal, tb.accel_wings, opt)
            if ds[i, F_QUICKEN] + ds[i, F_SLOW] > 0:
                count_speed_spells(ds, i, hi, opt, tb, cnt)
            s = choose_speed(ds[i, F_POLICY], ds, i, lo, hi, w.pst)
        if log is not None:
            r = log_row(log, nlog, ds, turn, K_SPEED, i, -1)
            if r >= 0:
                log[r, L_A + 0] = s
                log[r, L_A + 1] = ds[i, F_LAST]
                log[r, L_A + 2] = ds[i, F_STREAK]
                log[r, L_A + 3] = ds[i, F_COOL]
                log[r, L_A + 4] = ds[i, F_MIN]
                log[r, L_A + 5] = ds[i, F_MAX]
                log[r, L_A + 6] = ds[i, F_DP + PART_LEFT_WING]
                log[r, L_A + 7] = ds[i, F_DP + PART_RIGHT_WING]
                log[r, L_A + 8] = ds[i, F_DP0 + PART_LEFT_WING]
                log[r, L_A + 9] = ds[i, F_DP0 + PART_RIGHT_WING]
                log[r, L_A + 10] = lo  # the speeds it may record this turn
                log[r, L_A + 11] = hi
                log[r, L_A + 12] = 1 if ground else 0  # 0 ("ground") allowed too
                log[r, L_A + 13] = ds[i, F_DP + PART_TAIL]
        record_speed(ds, i, s, scal)


@game_fn
def count_speed_spells(ds, i, hi, opt, tb, cnt):
    """Quicken's and Slow's effect sizes (p.25) on dragon ``i``'s limits this record-speed
    phase: how far ``hi`` stands above / below the highest speed without them."""
    q = ds[i, F_QUICKEN]
    sl = ds[i, F_SLOW]
    ds[i, F_QUICKEN] = 0
    ds[i, F_SLOW] = 0
    lo0, hi0 = speed_limits(ds, i, tb.scalars, tb.accel_wings, opt)
    ds[i, F_QUICKEN] = q
    ds[i, F_SLOW] = sl
    d = hi - hi0
    if q > 0 and d > 0:
        cnt[C_SPELL_FX + SPELL_QUICKEN] += d
        cnt[C_SPELL_FX_SQ + SPELL_QUICKEN] += d * d
    if sl > 0 and d < 0:
        cnt[C_SPELL_FX + SPELL_SLOW] -= d
        cnt[C_SPELL_FX_SQ + SPELL_SLOW] += d * d


@game_fn(inline="always")
def bot_move(pid, ds, i, speed, tb, mv, plan, geo, w):
    """Bot ``pid``'s move for dragon ``i`` flying ``speed`` points (its recorded speed, or
    what is left after a take-off's leap): ``(entry, dalt)`` from
    :func:`~dragonsim.lords.bots.dispatch.choose_move`, handed the tables of the game (the
    movement phase and the look-ahead's candidate moves ask the same way)."""
    scal = tb.scalars
    return choose_move(
        pid,
        ds,
        i,
        speed,
        mv.off,
        mv.h,
        mv.rq,
        mv.rr,
        mv.box,
        mv.pk,
        mv.pe,
        mv.inv,
        mv.tg,
        mv.tg_off,
        plan,
        scal[S_BASE_TO_HIT],
        tb.alt_mod,
        scal[S_MAX_RANGE],
        scal[S_BOARD_WIDTH],
        scal[S_BOARD_DEPTH],
        scal[S_ALTITUDE_LEVELS],
        tb.cc_by_mr,
        scal[S_CC_SELF_DAMAGE_DICE],
        ds[i, F_SAMPLES],
        w.pst,
        w.scratch,
        geo,
        mv.alt_off,
        mv.alt,
        mv.bk,
    )


@game_fn(inline="always")  # into play_game: the planners' code is linked one level fewer
def movement(ds, nd, na, k0, opt, tb, range_mod, mv, plan, geo, w, cnt, turn, log, nlog, srch):
    """ "3. Movement" (p.8): in initiative order each dragon flies exactly its speed
    (:func:`move_one`); a dragon with no move that stays on the board flies off and is out of
    the game. After each move the dragon may engage the one enemy in front of it
    (:func:`~dragonsim.lords.game.mechanics.can_engage`, p.9). With ``OPT_MOVE_EARLY`` a dragon
    later in the order may move before the one whose turn it is (:func:`announce_early`).
    Returns the engagements made.

    The movers are ``w.order[k0:na]`` (a game starts at 0; a look-ahead continues a turn after
    its own move). ``srch`` is the look-ahead's scratch (:func:`~dragonsim.lords.bots.search.
    new_search_work`) when the game has a ``search`` bot, or None: then the look-ahead is not
    compiled in at all (numba prunes the branch), which is also what keeps the look-ahead's
    own games from calling it. Dragons that have moved already (earlier in the phase, p.15)
    are passed over."""
    engages = 0
    early = opt[OPT_MOVE_EARLY] == 1
    wizard = opt[OPT_WIZARD] == 1
    if wizard:
        # Lethargy and Vigor (p.25): "during the next movement phase"
        for i in range(nd):
            if ds[i, F_SPELL_MR] != 0 and ds[i, F_ALIVE] == 1:
                apply_spell_mr(ds, i, tb.scalars, opt)
    for k in range(k0, na):
        # with moving earlier (p.15): the dragons that announce now move first, the higher
        # initiative roll first, then the dragon whose turn it was (slots hi..k, marked ones)
        mask = np.int64(0)
        if early:
            mask = announce_early(ds, na, k, w, cnt, turn, log, nlog)
        hi = na - 1 if mask != 0 else k
        for s in range(hi, k - 1, -1):
            if s != k and (mask >> s) & 1 == 0:
                continue
            engages += move_one(
                ds, nd, na, s, opt, tb, range_mod, mv, plan, geo, w, cnt, turn, log, nlog, srch
            )
    if wizard:
        for i in range(nd):
            if ds[i, F_SPELL_MR] != 0 and ds[i, F_ALIVE] == 1:
                refresh(ds, i, tb.scalars, opt)  # "Speed is not affected, only turning"
    return engages


@game_fn
def announce_early(ds, na, k, w, cnt, turn, log, nlog):
    """ "Moving Earlier in the Phase" (advanced rules, p.15): before the dragon at slot ``k``
    moves, each dragon later in the initiative order that has not moved may announce that it
    moves now ("Once you commit to move early, you may not change your mind"); each decides
    without seeing the others' announcements. Returns the announcing slots as a bit mask;
    "If more than one player would like to move at a particular time, the one with the
    higher initiative roll moves first" (the caller moves them from the highest slot down)."""
    mask = np.int64(0)
    i = w.order[k]
    if ds[i, F_ALIVE] == 0 or ds[i, F_MOVED] == 1:
        return mask
    for s in range(na - 1, k, -1):
        j = w.order[s]
        if ds[j, F_ALIVE] == 0 or ds[j, F_MOVED] == 1:
            continue
        if choose_early(ds[j, F_POLICY], ds, j, w.pst):
            mask |= np.int64(1) << s
            cnt[C_EARLY] += 1
            if log is not None:
                log_row(log, nlog, ds, turn, K_EARLY, j, i)
    return mask


@game_fn(inline="always")
def move_one(ds, nd, na, k, opt, tb, range_mod, mv, plan, geo, w, cnt, turn, log, nlog, srch):
    """The dragon at initiative slot ``k`` flies its move (unless it is out of play or has
    moved already) and may engage; returns the engagements made (0 or 1). A dragon on the
    ground (advanced rules, p.17) moves on the ground (:func:`ground_move`) or takes off
    (:func:`take_off`); with ``OPT_LANDING`` a dragon whose bot chooses to may land
    (:func:`land`)."""
    scal = tb.scalars
    base = scal[S_BASE_TO_HIT]
    max_range = scal[S_MAX_RANGE]
    self_dice = scal[S_CC_SELF_DAMAGE_DICE]
    i = w.order[k]
    if ds[i, F_ALIVE] == 0 or ds[i, F_MOVED] == 1:
        return 0
    jeng = ASK_BOT  # the engagement: chosen with the move (search) or asked after it
    kind = MK_FLY
    if ds[i, F_ALT] == 0:
        if ds[i, F_SPEED] == 0:
            ground_move(ds, i, tb, range_mod, plan, w, cnt, turn, log, nlog)
            kind = MK_GROUND
        else:
            if not take_off(ds, i, tb, mv, plan, geo, w, cnt, turn, log, nlog):
                return 0
            kind = MK_TAKE_OFF
    elif opt[OPT_LANDING] == 1 and choose_land(ds[i, F_POLICY], ds, i, w.pst):
        if land(ds, i, tb, mv, w, cnt, turn, log, nlog):
            kind = MK_LAND
    if kind == MK_FLY:
        if srch is not None and FAMILIES[ds[i, F_POLICY]] == FAMILY_SEARCH:
            e, dalt, jeng = _search.search_move(
                ds, nd, na, k, opt, tb, range_mod, mv, plan, geo, w, srch, turn
            )
        else:
            e, dalt = bot_move(ds[i, F_POLICY], ds, i, ds[i, F_SPEED], tb, mv, plan, geo, w)
        if not fly(
            ds,
            i,
            e,
            dalt,
            ds[i, F_SPEED],
            mv,
            w,
            cnt,
            turn,
            log,
            nlog,
            MK_FLY,
            ds[i, F_Q],
            ds[i, F_R],
        ):
            return 0
    j = jeng
    if jeng == ASK_BOT:
        j = choose_engage(
            ds[i, F_POLICY],
            ds,
            i,
            plan,
            base,
            tb.arc,
            range_mod,
            tb.alt_mod,
            max_range,
            tb.cc_by_mr,
            self_dice,
            opt,
            scal,
            w.pst,
        )
    if j >= 0 and can_engage(ds, i, j, opt):
        if log is not None:
            log_row(log, nlog, ds, turn, K_ENGAGE, i, j)
        ds[i, F_ENG] = j
        ds[j, F_ENG] = i
        # "The dragon that instigated the close combat is referred to as the attacker"
        # (optional tactics, p.22)
        ds[i, F_ENGAGER] = i
        ds[j, F_ENGAGER] = i
        cnt[C_ENGAGES] += 1
        return 1
    return 0


@game_fn
def fly(ds, i, e, dalt, speed, mv, w, cnt, turn, log, nlog, kind, q_from, r_from):
    """Dragon ``i`` flies move-table entry ``e`` with altitude change ``dalt`` (``speed``
    points; logged as a move of ``kind``, ``MK_*``, with ``(q_from, r_from)``, where a
    take-off left the ground, at ``L_A + 8, 9``, and the banks flown and levels they dropped
    at ``L_A + 10, 11``: "for every two banks in sequence, the dragon's altitude drops by one
    level", p.16; the turn carried into the move and the one it leaves at ``L_A + 12, 13``:
    turning between move phases, p.16); ``e < 0``: no move stays on the board, and the dragon
    flies off and is out of the game (returns False)."""
    if e < 0:
        if log is not None:
            r = log_row(log, nlog, ds, turn, K_LEAVE, i, -1)
            if r >= 0:
                log[r, L_A + 0] = speed
                log[r, L_A + 1] = ds[i, F_MR]
                log[r, L_A + 6] = kind
                log[r, L_A + 8] = q_from
                log[r, L_A + 9] = r_from
                log[r, L_A + 12] = ds[i, F_TURNED]
        ds[i, F_ALIVE] = 0
        ds[i, F_LEFT] = 1
        ds[i, F_MOVED] = 1
        cnt[C_LEFT_BOARD] += 1
        return False
    tl = mv.bk[e, BK_TURNED]  # the turn the move leaves (turning between move phases)
    if w.pst.shape[0] > 1 and kind != MK_LAND:
        tl = _scripted.script_turned(ds, i, tl, w.pst)  # a scripted path's own
    if log is not None:
        r = log_row(log, nlog, ds, turn, K_MOVE, i, -1)
        if r >= 0:
            f0 = ds[i, F_F]
            log[r, L_A + 0] = speed
            log[r, L_A + 1] = ds[i, F_MR]
            log[r, L_A + 2] = ds[i, F_Q] + mv.rq[e, f0]
            log[r, L_A + 3] = ds[i, F_R] + mv.rr[e, f0]
            log[r, L_A + 4] = (f0 + mv.f[e]) % 6
            log[r, L_A + 5] = ds[i, F_ALT] + dalt - mv.bk[e, BK_LL]
            log[r, L_A + 6] = kind
            log[r, L_A + 8] = q_from
            log[r, L_A + 9] = r_from
            log[r, L_A + 10] = mv.bk[e, BK_NB]
            log[r, L_A + 11] = mv.bk[e, BK_LL]
            log[r, L_A + 12] = ds[i, F_TURNED]
            log[r, L_A + 13] = tl
    cnt[C_BANKS] += mv.bk[e, BK_NB]
    cnt[C_BANK_DROPS] += mv.bk[e, BK_LL]
    if ds[i, F_TURNED] != 0:
        cnt[C_TURN_CARRIED] += 1
        cnt[C_TURN_CONTINUED] += mv.bk[e, BK_CONT]
    apply_move(ds, i, e, dalt, mv.rq, mv.rr, mv.f, mv.bk)
    ds[i, F_TURNED] = tl
    return True


@game_fn
def ground_move(ds, i, tb, range_mod, plan, w, cnt, turn, log, nlog):
    """ "Moving on the Ground: When it comes time for a dragon on the ground to move, roll
    1d6+3. The dragon can move up to this number of hexes along the ground ... Also, it may
    turn any number of times at no cost and with no restrictions" (advanced rules, p.17); a
    dragon stuck in its hex (a zeroed tail or wing, or any crash under the reading
    ``lords.crash_stuck = every-crash``) "may turn in that hex but it may not move from it"
    (no roll)."""
    scal = tb.scalars
    reach = np.int64(0)
    roll = np.int64(0)
    if not stuck_on_ground(ds, i):
        nd6 = scal[S_GROUND_MOVE_DICE]
        roll = roll_dice(w.gst, nd6) + scal[S_GROUND_MOVE_PLUS]
        cnt[C_DICE] += nd6
        reach = roll
        g = roll - scal[S_GROUND_MOVE_PLUS] - nd6
        if 0 <= g < 6:
            cnt[C_GROUND_ROLLS + g] += 1
    q, r, f = choose_ground_move(
        ds[i, F_POLICY],
        ds,
        i,
        reach,
        plan,
        scal[S_BASE_TO_HIT],
        tb.arc,
        range_mod,
        tb.alt_mod,
        scal[S_MAX_RANGE],
        scal[S_BOARD_WIDTH],
        scal[S_BOARD_DEPTH],
        w.pst,
    )
    if log is not None:
        lr = log_row(log, nlog, ds, turn, K_MOVE, i, -1)
        if lr >= 0:
            log[lr, L_A + 0] = 0
            log[lr, L_A + 1] = ds[i, F_MR]
            log[lr, L_A + 2] = q
            log[lr, L_A + 3] = r
            log[lr, L_A + 4] = f
            log[lr, L_A + 5] = 0
            log[lr, L_A + 6] = MK_GROUND
            log[lr, L_A + 7] = roll
    ds[i, F_Q] = q
    ds[i, F_R] = r
    ds[i, F_F] = f
    ds[i, F_MOVED] = 1


@game_fn
def take_off(ds, i, tb, mv, plan, geo, w, cnt, turn, log, nlog):
    """ "Taking Off ... the dragon must climb to Very Low altitude and move a number of hexes
    in a straight line equal to its minimum speed. This always costs a number of movement
    points equal to its minimum speed plus 1 ... Once the dragon has made the required move,
    any additional movement points may be spent normally" (p.17): the leap, then a move of
    the points left from Very Low (the bot's, as any move). Returns False when the dragon
    flew off the board (the leap, or no move of the rest stays on it)."""
    scal = tb.scalars
    speed = ds[i, F_SPEED]
    cost = ds[i, F_MIN] + scal[S_TAKEOFF_OVER_MIN]
    fits, q, r = takeoff_path(ds, i, scal[S_BOARD_WIDTH], scal[S_BOARD_DEPTH])
    cnt[C_TAKEOFFS] += 1
    cnt[C_TAKEOFF_POINTS] += cost
    q0 = ds[i, F_Q]
    r0 = ds[i, F_R]
    if not fits:
        return fly(ds, i, -1, 0, speed, mv, w, cnt, turn, log, nlog, MK_TAKE_OFF, q0, r0)
    ds[i, F_Q] = q
    ds[i, F_R] = r
    ds[i, F_ALT] = 1
    rest = speed - cost
    e, dalt = bot_move(ds[i, F_POLICY], ds, i, rest, tb, mv, plan, geo, w)
    return fly(ds, i, e, dalt, rest, mv, w, cnt, turn, log, nlog, MK_TAKE_OFF, q0, r0)


@game_fn
def land(ds, i, tb, mv, w, cnt, turn, log, nlog):
    """ "Landing ... A dragon may land on the ground from Very Low altitude by moving forward
    1 hex and spending 1 point. This must be the dragon's last point, as its move ends there.
    The dragon's altitude is now Ground" (p.17): the bot's flight of the other points ends
    at Very Low, then the hex ahead. Returns False (and moves nothing) when the bot finds no
    such flight: it then flies its move."""
    scal = tb.scalars
    width = scal[S_BOARD_WIDTH]
    depth = scal[S_BOARD_DEPTH]
    speed = ds[i, F_SPEED] - scal[S_LANDING_COST]
    if speed < 0:
        return False
    e, dalt = choose_landing(
        ds[i, F_POLICY],
        ds,
        i,
        speed,
        mv.off,
        mv.h,
        mv.rq,
        mv.rr,
        mv.f,
        mv.box,
        mv.pk,
        mv.pe,
        mv.alt_off,
        mv.alt,
        width,
        depth,
        scal[S_ALTITUDE_LEVELS],
        w.pst,
        mv.bk,
    )
    if e < 0:
        return False
    fits, q, r = landing_hex(ds, i, e, dalt, mv.rq, mv.rr, mv.f, width, depth)
    if not fits:
        if w.pst.shape[0] > 1:
            _scripted.script_landing_error(ds, i, ds[i, F_ALT] + dalt, w.pst)
        return False
    f0 = ds[i, F_F]
    f = (f0 + mv.f[e]) % 6
    if log is not None:
        lr = log_row(log, nlog, ds, turn, K_MOVE, i, -1)
        if lr >= 0:
            log[lr, L_A + 0] = ds[i, F_SPEED]
            log[lr, L_A + 1] = ds[i, F_MR]
            log[lr, L_A + 2] = q
            log[lr, L_A + 3] = r
            log[lr, L_A + 4] = f
            log[lr, L_A + 5] = 0
            log[lr, L_A + 6] = MK_LAND
            log[lr, L_A + 8] = ds[i, F_Q] + mv.rq[e, f0]  # where the flight ended
            log[lr, L_A + 9] = ds[i, F_R] + mv.rr[e, f0]
            log[lr, L_A + 12] = ds[i, F_TURNED]
    if ds[i, F_TURNED] != 0:
        cnt[C_TURN_CARRIED] += 1
        cnt[C_TURN_CONTINUED] += mv.bk[e, BK_CONT]
    apply_move(ds, i, e, dalt, mv.rq, mv.rr, mv.f, mv.bk)
    ds[i, F_Q] = q
    ds[i, F_R] = r
    ds[i, F_ALT] = 0
    ds[i, F_TURNED] = 0  # its last point was the hex ahead
    cnt[C_LANDINGS] += 1
    return True


@game_fn
def crash(ds, i, cause, opt, tb, w, cnt, turn, log, nlog, facing_roll, facing):
    """Dragon ``i`` crashes (advanced rules, pp. 17 and 22; ``cause`` ``CR_*``): "leave it in
    the same hex but replace its altitude marker with a Ground counter"; "A crashing dragon
    must roll on the Rear column of the Damage Allocation Table. The body part rolled will
    take 1d6 points of crash damage for each altitude the dragon fell"; "If the dragon has a
    rider, roll 1d6. If the result is a 1, 2 or 3, the rider has been killed in the fall".
    ``facing_roll``: a crashing close-combat winner "must also roll for facing after the
    loser does": the caller rolls the direction template, and the dragon turns to ``facing``
    (with ``facing_roll`` -1 it keeps its facing). Crash damage to a zeroed tail or wing goes
    to the body."""
    scal = tb.scalars
    gst = w.gst
    levels = ds[i, F_ALT]
    if log is not None:
        log_effects_before(w.scratch, ds, i)
        r = log_row(log, nlog, ds, turn, K_CRASH, i, -1)  # where it fell from
    ds[i, F_ALT] = 0
    ds[i, F_TURNED] = 0  # on the ground (turning between move phases, p.16, is flight's)
    if opt[OPT_CRASH_STUCK_EVERY] == 1:
        # "If the dragon survives the fall, it may turn in that hex but it may not move from
        # it" (p.17), read as said of every crash (lords.crash_stuck = every-crash)
        ds[i, F_STUCK] = 1
    if facing_roll >= 0:
        ds[i, F_F] = facing
    cnt[C_CRASHES + cause] += 1
    lr = roll_dice(gst, 2)
    part = tb.alloc[lr, SIDE_REAR]
    nd6 = levels * scal[S_CRASH_DICE_PER_LEVEL]
    dr_ = roll_dice(gst, nd6)
    cnt[C_DICE] += 2 + nd6
    took = damage(ds, i, hit_part(ds, i, part, opt), dr_)
    if 1 <= levels <= 5:
        cnt[C_CRASH_N + levels - 1] += 1
        cnt[C_CRASH_SUM + levels - 1] += dr_
        cnt[C_CRASH_SQ + levels - 1] += dr_ * dr_
    fall = np.int64(0)
    if ds[i, F_RIDER] > 0:
        fall = roll_d6(gst)
        cnt[C_DICE] += 1
        cnt[C_FALL_CHECKS] += 1
        if fall <= scal[S_RIDER_FALL_KILLS]:
            ds[i, F_RIDER] = 0
            ds[i, F_RTARGET] = -1
            cnt[C_FALL_KILLED] += 1
    refresh(ds, i, scal, opt)
    if log is not None:
        if r >= 0:
            log[r, L_A + 0] = cause
            log[r, L_A + 1] = levels
            log[r, L_A + 2] = lr
            log[r, L_A + 3] = part
            log[r, L_A + 4] = dr_
            log[r, L_A + 5] = took
            log[r, L_A + 6] = fall
            log[r, L_A + 7] = facing_roll
            log[r, L_A + 8] = ds[i, F_F]  # its facing after the fall
        log_effects(log, nlog, w.scratch, ds, turn, i)


@game_fn
def crash_if_zeroed(ds, nd, opt, tb, w, cnt, turn, log, nlog):
    """After damage has taken effect (every breath, every rider's attack): with
    ``OPT_CRASH_ZEROED`` each dragon still flying with a zeroed tail or wing crashes from
    where it is (p.17), in seat order."""
    if opt[OPT_CRASH_ZEROED] == 0:
        return
    for i in range(nd):
        if ds[i, F_ALIVE] == 1 and ds[i, F_ALT] > 0 and crashes_by_damage(ds, i):
            crash(ds, i, CR_ZEROED, opt, tb, w, cnt, turn, log, nlog, -1, 0)


@game_fn
def record_targets(ds, na, tb, range_mod, plan, w, turn, log, nlog):
    """ "4. Record Breath Targets" (p.10): every dragon in play records its target (or none)
    before anyone breathes."""
    scal = tb.scalars
    for k in range(na):
        i = w.order[k]
        if ds[i, F_ALIVE] == 1:
            t = choose_target(
                ds[i, F_POLICY],
                ds,
                i,
                plan,
                scal[S_BASE_TO_HIT],
                tb.arc,
                range_mod,
                tb.alt_mod,
                scal[S_MAX_RANGE],
                w.pst,
            )
            ds[i, F_TARGET] = t
            if log is not None:
                if t >= 0:
                    log_row(log, nlog, ds, turn, K_TARGET, i, t)


@game_fn
def roll_rider_check(ds, t, part, source, opt, scal, gst, cnt):
    """The rider check of a hit on ``t``'s ``part`` (p.18), from breath, close combat or a
    rider's attack (``source``: ``RK_*``): when the rule is on and the body of a dragon with a
    rider is hit, roll 2d6 (after the location roll, before the damage dice); a 7 kills the
    rider (:func:`~dragonsim.lords.game.mechanics.rider_check`). Returns ``(roll, spared)``: the
    roll (0: none) and whether the dragon takes no damage from the attack. Under the reading
    ``lords.rider_check_rider_hits = breath-and-close-combat`` (``OPT_RIDER_HIT_NO_CHECK``) a
    rider's attack (``RK_RIDER``, the damage spells too) rolls none."""
    if not rider_at_risk(ds, t, part, opt):
        return np.int64(0), False
    if source == RK_RIDER and opt[OPT_RIDER_HIT_NO_CHECK] == 1:
        return np.int64(0), False
    rc = roll_dice(gst, 2)
    cnt[C_DICE] += 2
    cnt[C_RIDER_CHECKS + source] += 1
    spared = rider_check(ds, t, rc, scal)
    if spared:
        cnt[C_RIDER_KILLED + source] += 1
    return rc, spared


@game_fn
def record_rider_actions(ds, na, opt, tb, plan, range_mod, w, turn, log, nlog):
    """ "4. Record Rider Actions" (advanced rules, p.15): "the riders each record their
    chosen action ... just like recording the dragon's speed or its breath weapon target",
    so every rider records its target before any rider acts. A Javelin Thrower, Archer or
    Crossbow Shooter records a target in reach (or none); the Lancer acts only in close
    combat. With the Wizard (``OPT_WIZARD``) "Wizards must also record on their
    player's game log which spell they will cast" (:func:`record_spells`)."""
    scal = tb.scalars
    for k in range(na):
        i = w.order[k]
        ds[i, F_RTARGET] = -1
        if ds[i, F_ALIVE] == 0 or opt[OPT_RIDER_ATTACKS] == 0:
            continue
        t = choose_rider_target(
            ds[i, F_POLICY],
            ds,
            i,
            plan,
            scal[S_BASE_TO_HIT],
            tb.alt_mod,
            tb.rider_range,
            tb.rider_dice,
            scal,
            opt,
            w.pst,
        )
        ds[i, F_RTARGET] = t
        if log is not None:
            if t >= 0:
                log_row(log, nlog, ds, turn, K_RTARGET, i, t)
    if opt[OPT_WIZARD] == 1:
        record_spells(ds, na, opt, tb, range_mod, w, turn, log, nlog)


@game_fn
def record_spells(ds, na, opt, tb, range_mod, w, turn, log, nlog):
    """The Wizards record their spells (p.15), each its spell, target and argument
    (:func:`~dragonsim.lords.bots.dispatch.choose_spell`), before any rider acts: "A Wizard
    can only try to cast one spell each turn" (p.18)."""
    for k in range(na):
        i = w.order[k]
        ds[i, F_SPELL] = -1
        ds[i, F_STARGET] = -1
        ds[i, F_SARG] = 0
        if ds[i, F_ALIVE] == 0:
            continue
        sp, t, arg = choose_spell(ds, i, tb, range_mod, opt, w.pst)
        if sp < 0:
            continue
        ds[i, F_SPELL] = sp
        ds[i, F_STARGET] = t
        ds[i, F_SARG] = arg
        if log is not None:
            r = log_row(log, nlog, ds, turn, K_SPELL_REC, i, t)
            if r >= 0:
                log[r, L_A + 0] = sp
                log[r, L_A + 1] = arg
                log[r, L_A + 2] = ds[i, F_MAGIC]


@game_fn
def expire_spells(ds, nd, opt, tb, cnt):
    """ "Once cast, each spell lasts until the beginning of the next rider actions phase"
    (p.24): at the beginning of the phase every Force Shield fails (what it absorbed is
    counted), Dull and Sharpen, Distort Range, Lethargy and Vigor, Quicken and Slow end.
    Saddlesore lasts until it has taken its rider action."""
    scal = tb.scalars
    for i in range(nd):
        count_absorbed(ds, i, cnt)
        ds[i, F_SHIELD] = 0
        ds[i, F_DISTORT] = 0
        ds[i, F_SPELL_MR] = 0
        ds[i, F_QUICKEN] = 0
        ds[i, F_SLOW] = 0
        if ds[i, F_SPELL_CLAW] != 0:
            ds[i, F_SPELL_CLAW] = 0
            if ds[i, F_ALIVE] == 1:
                refresh(ds, i, scal, opt)


@game_fn(inline="always")
def count_absorbed(ds, i, cnt):
    """What the Force Shields on ``i`` absorbed since the last count (a shield's effect)."""
    ab = ds[i, F_ABSORBED]
    if ab > 0:
        cnt[C_SPELL_FX + SPELL_SHIELD] += ab
        cnt[C_SPELL_FX_SQ + SPELL_SHIELD] += ab * ab
        ds[i, F_ABSORBED] = 0


@game_fn
def roll_rider_hit(ds, a, t, opt, tb, w, cnt):
    """Where a rider's hit on ``t`` lands, "handled like a dragon's breath weapon attack"
    (p.18), a Fireball or a Lightning Bolt's too ("Resolve damage as for a breath attack",
    p.24): the direction template from ``a`` (a corner's side chosen by ``a``'s bot), the 2d6
    on that column of the Damage Allocation Table, and the rider check of a body hit.
    Returns ``(side, location roll, part, the rider check's 2d6, spared)``."""
    s1, s2 = direction_template(ds[a, F_Q], ds[a, F_R], ds[t, F_Q], ds[t, F_R], ds[t, F_F])
    side = s1
    if s2 >= 0:
        side = choose_side(ds[a, F_POLICY], ds, a, t, s1, s2, tb.alloc, w.pst)
    lr = roll_dice(w.gst, 2)
    cnt[C_DICE] += 2
    part = tb.alloc[lr, side]
    rc, spared = roll_rider_check(ds, t, part, RK_RIDER, opt, tb.scalars, w.gst, cnt)
    return side, lr, part, rc, spared


@game_fn
def cast_spell(ds, nd, a, opt, tb, w, cnt, turn, log, nlog):
    """``a``'s Wizard casts its recorded spell (advanced rules, pp. 18, 24-25). "When a Wizard
    casts a spell, immediately deduct the cost of the spell"; the 2d6 against the spell's
    target number (:func:`~dragonsim.lords.game.mechanics.spell_target_number`, rolled as a
    breath: a 2 always misses, a 12 always hits); "If a Wizard misses a target when rolling
    to hit, the spell fails and the points are lost"; on a hit the spell's effect (see rule
    ``lords.advanced.wizard``). Fireball and Lightning Bolt "Resolve damage as for a breath
    attack": the direction template from the caster, the 2d6 location and the rider check
    of a body hit, then the damage. A spell whose target left play, or whose Wizard was
    killed, before its turn is not cast."""
    scal = tb.scalars
    fx = tb.spell_fx
    gst = w.gst
    sp = ds[a, F_SPELL]
    t = ds[a, F_STARGET]
    arg = ds[a, F_SARG]
    ds[a, F_SPELL] = -1
    tn = np.int64(-1)
    band = np.int64(-1)
    if ds[a, F_RIDER] == RIDER_WIZARD and may_cast_at(ds, a, t, sp, opt):
        tn, band = spell_target_number(
            ds, a, t, sp, scal[S_BASE_TO_HIT], tb.alt_mod, tb.spells, scal
        )
    cost = tb.spells[sp, 0]
    if tn < 0 or cost > ds[a, F_MAGIC]:
        cnt[C_SPELL_LOST] += 1
        if log is not None:
            r = log_row(log, nlog, ds, turn, K_SPELL, a, t)
            if r >= 0:
                log[r, L_A] = -1
                log[r, L_A + 4] = sp
        return
    ds[a, F_MAGIC] -= cost
    ds[a, F_SPENT] += cost
    cnt[C_SPELL_POINTS] += cost
    hr = roll_dice(gst, 2)
    cnt[C_DICE] += 2
    cnt[C_SPELLS + sp] += 1
    ti = tn if tn < N_TN else N_TN - 1
    cnt[C_SPELL_TN_TRIES + ti] += 1
    if band == 2:
        cnt[C_SPELL_SELF] += 1
    hit = breath_hit(hr, tn, scal[S_AUTO_MISS], scal[S_AUTO_HIT])
    r = np.int64(-1)
    if log is not None:
        r = log_row(log, nlog, ds, turn, K_SPELL, a, t)  # the target's track before
        if r >= 0:
            log[r, L_A + 0] = sp
            log[r, L_A + 1] = tn
            log[r, L_A + 2] = hr
            log[r, L_A + 3] = 1 if hit else 0
            log[r, L_A + 4] = arg
            log[r, L_A + 5] = cost
            log[r, L_A + 6] = ds[a, F_MAGIC]
            log[r, L_A + 8] = -1
            log[r, L_A + 10] = -1
            log[r, L_A + 13] = band
            log[r, L_A + 14] = distance(ds[a, F_Q], ds[a, F_R], ds[t, F_Q], ds[t, F_R])
    if not hit:
        return
    cnt[C_SPELL_HITS + sp] += 1
    cnt[C_SPELL_TN_HITS + ti] += 1
    if band == 2:
        cnt[C_SPELL_SELF_HITS] += 1
    size = np.int64(0)
    side = np.int64(-1)
    lr = np.int64(0)
    part = np.int64(-1)
    d6 = np.int64(0)
    rc = np.int64(0)
    if sp == SPELL_FIREBALL or sp == SPELL_BOLT:
        side, lr, part, rc, spared = roll_rider_hit(ds, a, t, opt, tb, w, cnt)
        k6 = 0 if sp == SPELL_FIREBALL else 1
        nd6 = fx[SX_FIREBALL_DICE] if sp == SPELL_FIREBALL else fx[SX_BOLT_DICE]
        plus = fx[SX_FIREBALL_PLUS] if sp == SPELL_FIREBALL else fx[SX_BOLT_PLUS]
        if spared:
            nd6 = 0  # "The dragon takes no damage from the attack" (p.18)
        d6 = roll_dice(gst, nd6)
        cnt[C_DICE] += nd6
        if nd6 == 1 and 1 <= d6 <= 6:
            cnt[C_SPELL_D6 + 6 * k6 + d6 - 1] += 1
        if not spared:
            size = damage(ds, t, hit_part(ds, t, part, opt), d6 + plus)
            ds[a, F_DEALT] += size
    elif sp == SPELL_HEAL:
        nd6 = fx[SX_HEAL_DICE]
        d6 = roll_dice(gst, nd6)
        cnt[C_DICE] += nd6
        if nd6 == 1 and 1 <= d6 <= 6:
            cnt[C_SPELL_D6 + 12 + d6 - 1] += 1
        for _ in range(d6 + fx[SX_HEAL_PLUS]):
            p = heal_part(ds, t, arg)
            if p < 0:
                break
            ds[t, F_DP + p] += 1
            size += 1
        ds[t, F_HEALED] += size
    elif sp == SPELL_SHIELD:
        ds[t, F_SHIELD] += fx[SX_SHIELD]  # its size is counted when it fails
    elif sp == SPELL_DISTORT:
        ds[t, F_DISTORT] += arg  # its size is counted on the target's breath
    elif sp == SPELL_DULL or sp == SPELL_SHARPEN:
        before = ds[t, F_CLAW]
        ds[t, F_SPELL_CLAW] += -fx[SX_CLAW_STEPS] if sp == SPELL_DULL else fx[SX_CLAW_STEPS]
        refresh(ds, t, scal, opt)
        size = before - ds[t, F_CLAW] if sp == SPELL_DULL else ds[t, F_CLAW] - before
    elif sp == SPELL_LETHARGY or sp == SPELL_VIGOR:
        st = fx[SX_MR_STEPS] if sp == SPELL_LETHARGY else -fx[SX_MR_STEPS]
        m0 = ds[t, F_MR] + ds[t, F_SPELL_MR]
        ds[t, F_SPELL_MR] += st
        m1 = ds[t, F_MR] + ds[t, F_SPELL_MR]
        m0 = 0 if m0 < 0 else (8 if m0 > 8 else m0)
        m1 = 0 if m1 < 0 else (8 if m1 > 8 else m1)
        size = m1 - m0 if m1 > m0 else m0 - m1
    elif sp == SPELL_QUICKEN:
        ds[t, F_QUICKEN] = 1  # its size is counted when the speed is recorded
    elif sp == SPELL_SLOW:
        ds[t, F_SLOW] = 1
    elif sp == SPELL_SADDLESORE:
        if ds[t, F_RIDER] > 0:
            ds[t, F_SORE] = 1
            size = 1
    elif sp == SPELL_SPIN:
        ds[t, F_F] = (ds[t, F_F] + arg) % 6
        size = arg if arg > 0 else -arg
    if sp != SPELL_SHIELD and sp != SPELL_DISTORT and sp != SPELL_QUICKEN and sp != SPELL_SLOW:
        cnt[C_SPELL_FX + sp] += size
        cnt[C_SPELL_FX_SQ + sp] += size * size
    if log is not None:
        if r >= 0:
            log[r, L_A + 7] = size
            log[r, L_A + 8] = side
            log[r, L_A + 9] = lr
            log[r, L_A + 10] = part
            log[r, L_A + 11] = d6
            log[r, L_A + 12] = rc
    if opt[OPT_RIDER_AT_ONCE] == 1 and (sp == SPELL_FIREBALL or sp == SPELL_BOLT):
        if log is not None:
            log_effects_before(w.scratch, ds, t)
        refresh(ds, t, scal, opt)
        if log is not None:
            log_effects(log, nlog, w.scratch, ds, turn, t)
        crash_if_zeroed(ds, nd, opt, tb, w, cnt, turn, log, nlog)


@game_fn
def rider_actions(ds, nd, na, opt, tb, w, cnt, turn, log, nlog):
    """ "5. Rider Actions" (advanced rules, p.18): "Rider actions are performed in the order
    of their dragon's initiative scores from lowest to highest" (never moved earlier, p.15).
    Each attack "is handled like a dragon's breath weapon attack": 2d6 against the target
    number (:func:`~dragonsim.lords.game.mechanics.rider_target_number`), on a hit the direction
    template and the 2d6 location, the rider check of a body hit (2d6 = 7: the target's rider
    is killed instead, p.18), then the band's damage from the Rider Abilities Table. Serious
    damage effects and removals wait until every rider has acted, as in breath combat (rule
    ``lords.rider_at_once`` applies them after each attack instead); a rider killed before its
    turn loses its action.

    With the Wizard (``OPT_WIZARD``) the phase begins with the end of last turn's
    spells (:func:`expire_spells`); a rider under Saddlesore "may do nothing during its next
    action phase" (its action is lost, the flag spent), and a Wizard casts its recorded spell
    in its turn (:func:`cast_spell`)."""
    scal = tb.scalars
    base = scal[S_BASE_TO_HIT]
    auto_miss = scal[S_AUTO_MISS]
    auto_hit = scal[S_AUTO_HIT]
    gst = w.gst
    at_once = opt[OPT_RIDER_AT_ONCE] == 1
    wizard = opt[OPT_WIZARD] == 1
    if wizard:
        expire_spells(ds, nd, opt, tb, cnt)
    for k in range(na):
        a = w.order[k]
        if wizard:
            if ds[a, F_SORE] == 1 and ds[a, F_ALIVE] == 1:
                ds[a, F_SORE] = 0
                if ds[a, F_RIDER] > 0 and (ds[a, F_RTARGET] >= 0 or ds[a, F_SPELL] >= 0):
                    cnt[C_SORE_LOST] += 1
                    if log is not None:
                        r = log_row(log, nlog, ds, turn, K_SPELL, a, -1)
                        if r >= 0:
                            log[r, L_A] = -2
                            log[r, L_A + 4] = ds[a, F_SPELL]
                ds[a, F_RTARGET] = -1
                ds[a, F_SPELL] = -1
                continue
            if ds[a, F_SPELL] >= 0:
                if ds[a, F_ALIVE] == 1:
                    cast_spell(ds, nd, a, opt, tb, w, cnt, turn, log, nlog)
                else:
                    ds[a, F_SPELL] = -1
                continue
        t = ds[a, F_RTARGET]
        if t < 0 or ds[a, F_ALIVE] == 0 or ds[a, F_RIDER] == 0:
            continue
        if not may_shoot_at(ds, a, t, opt):
            continue  # its target was removed (with lords.rider_at_once): the shot is lost
        tn, band = rider_target_number(ds, a, t, base, tb.alt_mod, tb.rider_range, scal)
        hr = roll_dice(gst, 2)
        cnt[C_DICE] += 2
        cnt[C_RIDER_TRIES + band] += 1
        ti = tn if tn < N_TN else N_TN - 1
        cnt[C_RIDER_TN_TRIES + ti] += 1
        hit = breath_hit(hr, tn, auto_miss, auto_hit)
        r = np.int64(-1)
        if log is not None:
            r = log_row(log, nlog, ds, turn, K_RIDER, a, t)  # the target's track before
            if r >= 0:
                log[r, L_A + 0] = tn
                log[r, L_A + 1] = hr
                log[r, L_A + 2] = 1 if hit else 0
                log[r, L_A + 3] = -1
                log[r, L_A + 8] = band
                log[r, L_A + 9] = distance(ds[a, F_Q], ds[a, F_R], ds[t, F_Q], ds[t, F_R])
                log[r, L_A + 10] = -1  # riders have a 360 deg arc: no arc area
        if not hit:
            continue
        cnt[C_RIDER_HITS + band] += 1
        cnt[C_RIDER_TN_HITS + ti] += 1
        side, lr, part, rc, spared = roll_rider_hit(ds, a, t, opt, tb, w, cnt)
        kind = ds[a, F_RIDER]
        nd6 = 0 if spared else tb.rider_dice[kind, band, 0]
        plus = 0 if spared else tb.rider_dice[kind, band, 1]
        dr_ = roll_dice(gst, nd6)
        cnt[C_DICE] += nd6
        took = damage(ds, t, hit_part(ds, t, part, opt), dr_ + plus) if not spared else 0
        ds[a, F_DEALT] += took
        cnt[C_RIDER_DEALT + a] += took
        if log is not None:
            if r >= 0:
                log[r, L_A + 3] = side
                log[r, L_A + 4] = lr
                log[r, L_A + 5] = part
                log[r, L_A + 6] = dr_
                log[r, L_A + 7] = took
                log[r, L_A + 11] = rc
                log[r, L_A + 12] = plus
        if at_once:
            if log is not None:
                log_effects_before(w.scratch, ds, t)
            refresh(ds, t, scal, opt)
            if log is not None:
                log_effects(log, nlog, w.scratch, ds, turn, t)
            crash_if_zeroed(ds, nd, opt, tb, w, cnt, turn, log, nlog)
    for i in range(nd):
        if log is not None:
            log_effects_before(w.scratch, ds, i)
        refresh(ds, i, scal, opt)
        if log is not None:
            log_effects(log, nlog, w.scratch, ds, turn, i)
    crash_if_zeroed(ds, nd, opt, tb, w, cnt, turn, log, nlog)


@game_fn
def fumble(ds, a, opt, tb, gst, cnt):
    """ "If you roll an unmodified 2 when rolling to hit with a breath weapon, your dragon has
    breathed on itself! If you have a rider, check for rider damage. Otherwise roll on the
    Fumble Table to determine how much damage the dragon did to itself and where" (optional
    rules, p.20): with a rider and the rider deaths rule, the rider check's 2d6 first
    (:func:`roll_rider_check`, a 7 kills the rider and the dragon takes no damage); then,
    unless it killed the rider (or, with the reading ``lords.fumble_rider`` = rider-only, a
    rider was checked at all), the Fumble Table's 2d6 and its d6 of damage on ``a`` itself.
    Returns ``(rider check, table roll, damage roll, points lost)`` (0: not rolled)."""
    scal = tb.scalars
    table = True
    rc = np.int64(0)
    if ds[a, F_RIDER] > 0 and rider_at_risk(ds, a, PART_BODY, opt):
        rc, spared = roll_rider_check(ds, a, PART_BODY, RK_BREATH, opt, scal, gst, cnt)
        cnt[C_FUMBLE_RIDER] += 1
        if spared:
            cnt[C_FUMBLE_RIDER_KILLED] += 1
        table = not spared and opt[OPT_FUMBLE_RIDER_ONLY] == 0
    if not table:
        return rc, np.int64(0), np.int64(0), np.int64(0)
    fr = roll_dice(gst, 2)
    cnt[C_DICE] += 2
    if fr >= 2:  # (a script that ran out of dice reads 0)
        cnt[C_FUMBLES + fr - 2] += 1
    nd6 = tb.fumble[fr, 0]
    dr_ = roll_dice(gst, nd6)
    cnt[C_DICE] += nd6
    took = damage(ds, a, hit_part(ds, a, tb.fumble[fr, 1], opt), dr_)
    return rc, fr, dr_, took


@game_fn
def critical(ds, a, t, dmg, part, dp_before, dealt_before, opt, tb, gst, cnt):
    """A critical hit of ``a`` on ``t`` (optional rules, p.19): "Roll on the Critical Hit
    Table to determine exactly what has happened to the target and what additional damage it
    has sustained", after the hit's own damage (``dmg`` points, on the table's ``part``; the
    target's damage points and ``a``'s damage dealt before it in ``dp_before``,
    ``dealt_before``). A result that would lower a statistic below its lowest rating, or
    break a fourth leg, is rerolled (:func:`~dragonsim.lords.game.mechanics.critical_rerolls`).
    Double and triple damage to the body: with the reading ``lords.critical_body_damage`` =
    additional (default) the hit's damage once / twice more on the body; with in-place the
    hit's damage x2 / x3 on the body in place of the hit (its damage is undone). Returns
    ``(table roll, rerolls, effect CE_*, points the body lost to it)``."""
    scal = tb.scalars
    rerolls = np.int64(0)
    cr = np.int64(0)
    eff = CE_NONE
    for _ in range(100):  # a reroll is never forced forever: Killed never rerolls
        cr = roll_dice(gst, 2)
        cnt[C_DICE] += 2
        eff = critical_effect(ds, t, tb.critical[cr])
        if not critical_rerolls(ds, t, eff, scal):
            break
        rerolls += 1
    if cr >= 2:  # (a script that ran out of dice reads 0)
        cnt[C_CRITS + cr - 2] += 1
    cnt[C_CRIT_REROLLS] += rerolls
    took = np.int64(0)
    if eff == CE_DOUBLE or eff == CE_TRIPLE:
        mult = 2 if eff == CE_DOUBLE else 3
        if opt[OPT_CRIT_IN_PLACE] == 1:
            for p in range(N_PARTS):
                ds[t, F_DP + p] = dp_before[p]
            ds[a, F_DEALT] = dealt_before
            took = damage(ds, t, PART_BODY, dmg * mult)
        else:
            took = damage(ds, t, PART_BODY, dmg * (mult - 1))
        ds[a, F_DEALT] += took
    else:
        apply_critical(ds, t, eff)
    return cr, rerolls, eff, took


@game_fn
def breath_combat(ds, nd, na, opt, tb, range_mod, w, cnt, turn, log, nlog):
    """ "5. Breath Combat" (pp. 10-12), simultaneous: damage points are ticked off as each
    attack is rolled (in initiative order, like the Example of Play), but serious damage
    effects and removals wait until every dragon has breathed, so a wounded dragon "still gets
    to make its own attack" at full strength. A recorded target that can no longer be breathed
    at wastes the breath. With the rider deaths rule (``OPT_RIDER_DEATHS``) a body hit on a
    dragon with a rider rolls the rider check first (p.18,
    :func:`~dragonsim.lords.game.mechanics.rider_check`).

    The optional rules (pp. 19-20): an unmodified 12 at a target number of 11 or less is a
    critical hit (``OPT_CRITICALS``, :func:`critical`, its table rolled after the hit's
    damage), an unmodified 2 a fumble (``OPT_FUMBLES``, :func:`fumble`), and with the
    three-hit limit (``OPT_HIT_LIMIT``) a dragon that has suffered damage from three breath
    attacks this turn cannot be breathed on again: its later attackers do not breathe."""
    scal = tb.scalars
    base = scal[S_BASE_TO_HIT]
    max_range = scal[S_MAX_RANGE]
    auto_miss = scal[S_AUTO_MISS]
    auto_hit = scal[S_AUTO_HIT]
    gst = w.gst
    crits = opt[OPT_CRITICALS] == 1
    fumbles = opt[OPT_FUMBLES] == 1
    limit = opt[OPT_HIT_LIMIT] == 1
    dp_before = w.scratch[:N_PARTS]  # a critical's in-place damage restores the hit's
    # "resolve all attacks in order of initiative" (p.20): highest first, or lowest first under
    # the reading lords.hit_limit_order = low-first; without the limit, lowest first
    high_first = limit and opt[OPT_HIT_LIMIT_LOW_FIRST] == 0
    if limit:
        for i in range(nd):
            ds[i, F_HIT_BY] = 0
    for kk in range(na):
        k = na - 1 - kk if high_first else kk
        a = w.order[k]
        t = ds[a, F_TARGET]
        if t < 0 or ds[a, F_ALIVE] == 0:
            continue
        if limit and ds[t, F_HIT_BY] >= scal[S_HIT_LIMIT]:
            # "any other players that recorded that dragon as a target may not breathe on
            # it, nor may they switch targets" (p.20)
            cnt[C_HIT_LIMIT] += 1
            if log is not None:
                r = log_row(log, nlog, ds, turn, K_BREATH, a, t)
                if r >= 0:
                    log[r, L_A] = -2
                    log[r, L_A + 3] = -1
                    log_geometry(log, r, ds, a, t, tb.arc)
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
            tb.arc,
            range_mod,
            tb.alt_mod,
            max_range,
        )
        if tn < 0:
            if log is not None:
                r = log_row(log, nlog, ds, turn, K_BREATH, a, t)
                if r >= 0:
                    log[r, L_A] = -1  # wasted: the target can no longer be breathed at
                    log_geometry(log, r, ds, a, t, tb.arc)
            continue  # a recorded target that cannot be breathed at: the breath is wasted
        if ds[a, F_DISTORT] != 0 and opt[OPT_RANGE_MOD] == 1:
            # Distort Range (p.24): "The affected dragon's to-hit roll is altered according
            # to its new perception of reality"
            sh = distort_shift(ds, a, t, ds[a, F_DISTORT], tb.range_step, tb.step_mod)
            tn += sh
            cnt[C_SPELL_FX + SPELL_DISTORT] += sh
            cnt[C_SPELL_FX_SQ + SPELL_DISTORT] += sh * sh
        hr = roll_dice(gst, 2)
        cnt[C_DICE] += 2
        cnt[C_BREATHS] += 1
        ti = tn if tn < N_TN else N_TN - 1
        cnt[C_TN_TRIES + ti] += 1
        can_crit = crits and tn <= scal[S_CRIT_MAX_TARGET]
        if can_crit:
            cnt[C_CRIT_CHANCES] += 1
        if fumbles:
            cnt[C_FUMBLE_CHANCES] += 1
        if not breath_hit(hr, tn, auto_miss, auto_hit):
            frc = np.int64(0)
            fr = np.int64(0)
            fdr = np.int64(0)
            flost = np.int64(0)
            if fumbles and hr == auto_miss:
                frc, fr, fdr, flost = fumble(ds, a, opt, tb, gst, cnt)
            if log is not None:
                r = log_row(log, nlog, ds, turn, K_BREATH, a, t)
                if r >= 0:
                    log[r, L_A + 0] = tn
                    log[r, L_A + 1] = hr
                    log[r, L_A + 2] = 0
                    log[r, L_A + 3] = -1
                    log[r, L_A + 16] = frc
                    log[r, L_A + 17] = fr
                    log[r, L_A + 18] = fdr
                    log[r, L_A + 19] = flost
                    log_geometry(log, r, ds, a, t, tb.arc)
            continue
        cnt[C_TN_HITS + ti] += 1
        cnt[C_BREATH_HITS] += 1
        ds[a, F_HITS] += 1
        s1, s2 = direction_template(ds[a, F_Q], ds[a, F_R], ds[t, F_Q], ds[t, F_R], ds[t, F_F])
        side = s1
        if s2 >= 0:
            side = choose_side(ds[a, F_POLICY], ds, a, t, s1, s2, tb.alloc, w.pst)
        lr = roll_dice(gst, 2)
        cnt[C_DICE] += 2
        rc, spared = roll_rider_check(ds, t, tb.alloc[lr, side], RK_BREATH, opt, scal, gst, cnt)
        nd6 = tb.weapon[ds[a, F_BREATH], 0]
        if spared:
            nd6 = 0  # "The dragon takes no damage from the attack" (p.18)
        dr_ = roll_dice(gst, nd6)
        cnt[C_DICE] += nd6
        is_crit = can_crit and hr == auto_hit
        lost = np.int64(0)
        if log is not None:
            r = log_row(log, nlog, ds, turn, K_BREATH, a, t)  # the target's track before
        if log is not None or limit:
            lost = points_left(ds, t)
        dealt_before = np.int64(0)
        if is_crit:
            for p in range(N_PARTS):
                dp_before[p] = ds[t, F_DP + p]
            dealt_before = ds[a, F_DEALT]
        if spared:
            part = tb.alloc[lr, side]
        else:
            part = resolve_breath(ds, a, t, side, lr, dr_, tb.alloc, tb.weapon, opt)
        cnt[C_LOC + 5 * side + part] += 1
        cr = np.int64(0)
        crr = np.int64(0)
        ce = CE_NONE
        ctook = np.int64(0)
        if is_crit:
            dmg = 0 if spared else dr_ + tb.weapon[ds[a, F_BREATH], 1]
            cr, crr, ce, ctook = critical(
                ds, a, t, dmg, part, dp_before, dealt_before, opt, tb, gst, cnt
            )
        if limit:
            if lost - points_left(ds, t) > 0:
                ds[t, F_HIT_BY] += 1  # "only those attacks that do damage" (p.20)
        if log is not None:
            if r >= 0:
                log[r, L_A + 0] = tn
                log[r, L_A + 1] = hr
                log[r, L_A + 2] = 1
                log[r, L_A + 3] = side
                log[r, L_A + 4] = lr
                log[r, L_A + 5] = part
                log[r, L_A + 6] = dr_
                log[r, L_A + 7] = lost - points_left(ds, t)
                log[r, L_A + 8] = nd6
                log[r, L_A + 11] = rc
                log[r, L_A + 12] = cr
                log[r, L_A + 13] = crr
                log[r, L_A + 14] = ce
                log[r, L_A + 15] = ctook
                log_geometry(log, r, ds, a, t, tb.arc)
    for i in range(nd):
        if log is not None:
            log_effects_before(w.scratch, ds, i)
        refresh(ds, i, scal, opt)
        if log is not None:
            log_effects(log, nlog, w.scratch, ds, turn, i)
    crash_if_zeroed(ds, nd, opt, tb, w, cnt, turn, log, nlog)


@game_fn
def use_tactic(ds, i, t, scal):
    """Check off dragon ``i``'s tactic ``t`` ("check off one of the appropriate boxes on your
    play sheet"); after the 30th check mark all are erased ("you may erase your check marks and
    start over with a fresh set of tactics", p.22). Returns 1 on a reset."""
    ds[i, F_TACTIC] = t
    ds[i, F_TAC_USED + t] += 1
    n = 0
    for k in range(N_TACTICS):
        n += ds[i, F_TAC_USED + k]
    if n >= scal[S_TACTIC_RESET]:
        for k in range(N_TACTICS):
            ds[i, F_TAC_USED + k] = 0
        return 1
    return 0


@game_fn
def close_combat(ds, na, opt, tb, w, cnt, turn, log, nlog):
    """ "6. Close Combat" (p.13): each engaged pair (once, when the earlier of the two comes up
    in initiative order) drops, slows (:func:`~dragonsim.lords.game.mechanics.cc_begin`), rolls
    2d6 plus modifiers; the winner rolls column, location and tooth-and-claw damage, takes
    its own 1d6, and the loser is turned by the direction template.

    With the optional tactics (``OPT_TACTICS``, p.22) the attacker (the dragon that engaged,
    ``F_ENGAGER``) and the defender first choose a tactic each (neither sees the other's) and
    check it off (:func:`use_tactic`); the Tactics Result Table's entry is added to the
    attacker's score. A Lunge winner rolls 1d6 more damage (after its tooth-and-claw dice); a
    Defend winner inflicts no damage and takes none of its own (no column, location, damage or
    self roll; the facings by the reading ``OPT_DEFEND_NO_TURN``); both Defend: no rolls at all,
    the altitude and speed still drop."""
    scal = tb.scalars
    self_dice = scal[S_CC_SELF_DAMAGE_DICE]
    gst = w.gst
    tactics_on = opt[OPT_TACTICS] == 1
    if opt[OPT_TURN_BETWEEN] == 1:
        for k in range(na):
            ds[w.order[k], F_CC_FACING] = -1  # set to its facing when it fights
    fight_pairs(ds, na, opt, tb, w, cnt, turn, log, nlog, scal, self_dice, gst, tactics_on)
    if opt[OPT_TURN_BETWEEN] == 1:
        # turning between move phases (p.16): the fight ends an engaged dragon's carried
        # turn (reading lords.turn_between_close_combat: "ends"), or only when it changed
        # the dragon's facing ("facing")
        for k in range(na):
            i = w.order[k]
            if ds[i, F_CC_FACING] >= 0 and (
                opt[OPT_TURN_CC_FACING] == 0 or ds[i, F_F] != ds[i, F_CC_FACING]
            ):
                ds[i, F_TURNED] = 0


@game_fn(inline="always")
def fight_pairs(ds, na, opt, tb, w, cnt, turn, log, nlog, scal, self_dice, gst, tactics_on):
    """The body of :func:`close_combat`: every engaged pair's fight."""
    for k in range(na):
        a = w.order[k]
        b = ds[a, F_ENG]
        if b < 0 or ds[b, F_INIT] < ds[a, F_INIT]:
            continue  # not engaged, or resolved when the earlier dragon came up
        if ds[a, F_ALIVE] == 0 or ds[b, F_ALIVE] == 0:
            continue
        if ds[a, F_ALT] == 1 and opt[OPT_CRASH_VERY_LOW] == 1:
            # "the mandatory loss of altitude will cause the two dragons to crash to the
            # ground before the combat has taken place" (p.17); the fight is then one on the
            # ground
            crash(ds, a, CR_VERY_LOW, opt, tb, w, cnt, turn, log, nlog, -1, 0)
            crash(ds, b, CR_VERY_LOW, opt, tb, w, cnt, turn, log, nlog, -1, 0)
            if ds[a, F_ALIVE] == 0 or ds[b, F_ALIVE] == 0:
                continue
        if opt[OPT_TURN_BETWEEN] == 1:
            ds[a, F_CC_FACING] = ds[a, F_F]  # (turning between move phases: they fight)
            ds[b, F_CC_FACING] = ds[b, F_F]
        air = ds[a, F_ALT] > 0  # the fight began in the air (crashes come after it)
        att = a
        dfn = b
        ta = np.int64(-1)
        td = np.int64(-1)
        tmod = np.int64(0)  # the table's adjustment to the attacker's score
        resets = np.int64(0)
        if tactics_on:
            if ds[a, F_ENGAGER] == b:
                att = b
                dfn = a
            # "both players secretly choose their tactics ... then reveal their choices
            # simultaneously" (p.22): both asked before either is checked off
            ta = choose_tactic(
                ds[att, F_POLICY],
                ds,
                att,
                dfn,
                True,
                tb.tactics,
                tb.cc_by_mr,
                tb.weapon,
                scal,
                opt,
                w.lp,
                w.pst,
            )
            td = choose_tactic(
                ds[dfn, F_POLICY],
                ds,
                dfn,
                att,
                False,
                tb.tactics,
                tb.cc_by_mr,
                tb.weapon,
                scal,
                opt,
                w.lp,
                w.pst,
            )
            resets = use_tactic(ds, att, ta, scal) + 2 * use_tactic(ds, dfn, td, scal)
            cnt[C_TACTIC_RESETS] += (resets & 1) + (resets >> 1)
            tmod = tb.tactics[ta, td]
        pair = C_TACTICS + 3 * (N_TACTICS * ta + td)
        cc_begin(ds, a, b, scal)
        if tactics_on and ta == TAC_DEFEND and td == TAC_DEFEND:
            # "neither dragon can inflict damage, so no combat rolls are necessary. The
            # altitude and speed of the dragons are still affected, however" (p.22)
            cnt[C_BOTH_DEFEND] += 1
            cnt[pair + 1] += 1
            if log is not None:
                r = log_row(log, nlog, ds, turn, K_CC, a, b)
                if r >= 0:
                    log[r, L_A] = -1
                    log[r, L_A + 13] = ta + 1
                    log[r, L_A + 14] = td + 1
                    log[r, L_A + 15] = tmod
                    log[r, L_A + 17] = att
                    log[r, L_A + 18] = resets
            if air:
                crash_after_fight(ds, a, b, -1, -1, opt, tb, w, cnt, turn, log, nlog)
            continue
        ra = roll_dice(gst, 2)
        rb = roll_dice(gst, 2)
        cnt[C_DICE] += 4
        ma = cc_modifier(ds, a, tb.cc_by_mr, scal, opt)
        mb = cc_modifier(ds, b, tb.cc_by_mr, scal, opt)
        if tactics_on:
            # "the adjustment to the attacker's modified close combat score" (p.22)
            if att == a:
                ma += tmod
            else:
                mb += tmod
            win = np.int64(-1)
            if ra + ma > rb + mb:
                win = a
            elif ra + ma < rb + mb:
                win = b
        else:
            win = cc_winner(ds, a, b, ra, rb, tb.cc_by_mr, scal, opt)
        di = ma - mb + CC_DIFF_ZERO
        if di < 0:
            di = 0
        if di > CC_DIFF_MAX:
            di = CC_DIFF_MAX
        if tactics_on:
            cnt[pair + (1 if win < 0 else (0 if win == att else 2))] += 1
        if win < 0:
            cnt[C_CC + 3 * di + 1] += 1
            if log is not None:
                r = log_row(log, nlog, ds, turn, K_CC, a, b)
                if r >= 0:
                    log[r, L_A] = -1
                    log[r, L_A + 1] = ra
                    log[r, L_A + 2] = rb
                    log[r, L_A + 3] = di - CC_DIFF_ZERO
                    if tactics_on:
                        log[r, L_A + 13] = ta + 1
                        log[r, L_A + 14] = td + 1
                        log[r, L_A + 15] = tmod
                        log[r, L_A + 17] = att
                        log[r, L_A + 18] = resets
            if air:
                crash_after_fight(ds, a, b, -1, -1, opt, tb, w, cnt, turn, log, nlog)
            continue
        cnt[C_CC + 3 * di + (0 if win == a else 2)] += 1
        lo_ = b if win == a else a
        wt = ta if win == att else td  # the winner's tactic (-1: tactics off)
        wf0 = ds[win, F_F]  # the winner's facing before the fight (a crash rolls from it)
        if wt == TAC_DEFEND:
            # "If a dragon used a Defend tactic and won the combat round, no damage is
            # inflicted on either dragon" (p.22); the facings: the reading lords.defend_win
            cnt[C_DEFEND_WINS] += 1
            fr = np.int64(-1)
            wf = wf0
            if opt[OPT_DEFEND_NO_TURN] == 0:
                fr = roll_d6(gst) - 1
                cnt[C_DICE] += 1
                wf = choose_facing(ds[win, F_POLICY], ds, win, lo_, w.pst) % 6
                ds[lo_, F_F] = (ds[lo_, F_F] - fr) % 6
                ds[win, F_F] = wf
            if log is not None:
                r = log_row(log, nlog, ds, turn, K_CC, a, b)
                if r >= 0:
                    log[r, L_A] = win
                    log[r, L_A + 1] = ra
                    log[r, L_A + 2] = rb
                    log[r, L_A + 3] = di - CC_DIFF_ZERO
                    log[r, L_A + 4] = -1
                    log[r, L_A + 10] = fr
                    log[r, L_A + 11] = wf
                    log[r, L_A + 13] = ta + 1
                    log[r, L_A + 14] = td + 1
                    log[r, L_A + 15] = tmod
                    log[r, L_A + 17] = att
                    log[r, L_A + 18] = resets
            if air:
                crash_after_fight(ds, lo_, win, win, wf0, opt, tb, w, cnt, turn, log, nlog)
            continue
        col = roll_d6(gst) - 1
        lr = roll_dice(gst, 2)
        rc, spared = roll_rider_check(
            ds, lo_, tb.alloc[lr, col], RK_CLOSE_COMBAT, opt, scal, gst, cnt
        )
        nd6 = 0 if spared else tb.weapon[ds[win, F_CLAW], 0]
        dr_ = roll_dice(gst, nd6)
        lunge = np.int64(0)
        if wt == TAC_LUNGE and not spared:
            # "If a dragon used a Lunge tactic and won the combat round, it inflicts an
            # additional +1d6 points of damage" (p.22)
            lunge = roll_d6(gst)
            cnt[C_DICE] += 1
            cnt[C_LUNGE] += 1
            cnt[C_LUNGE_SUM] += lunge
            if 1 <= lunge <= 6:
                cnt[C_LUNGE_FACES + lunge - 1] += 1
        sd = roll_dice(gst, self_dice)
        fr = roll_d6(gst) - 1
        cnt[C_DICE] += 1 + 2 + nd6 + self_dice + 1
        wf = choose_facing(ds[win, F_POLICY], ds, win, lo_, w.pst) % 6
        if log is not None:
            lost_l = points_left(ds, lo_)
            lost_w = points_left(ds, win)
            log_effects_before(w.scratch, ds, win)
            log_effects_before(w.scratch, ds, lo_)
        resolve_close_combat(
            ds, win, lo_, col, lr, dr_ + lunge, sd, fr, wf, tb.alloc, tb.weapon, scal, opt, spared
        )
        if log is not None:
            r = log_row(log, nlog, ds, turn, K_CC, a, b)
            if r >= 0:
                log[r, L_A] = win
                log[r, L_A + 1] = ra
                log[r, L_A + 2] = rb
                log[r, L_A + 3] = di - CC_DIFF_ZERO
                log[r, L_A + 4] = col
                log[r, L_A + 5] = lr
                log[r, L_A + 6] = dr_
                log[r, L_A + 7] = lost_l - points_left(ds, lo_)
                log[r, L_A + 8] = sd
                log[r, L_A + 9] = lost_w - points_left(ds, win)
                log[r, L_A + 10] = fr
                log[r, L_A + 11] = wf
                log[r, L_A + 12] = rc
                if tactics_on:
                    log[r, L_A + 13] = ta + 1
                    log[r, L_A + 14] = td + 1
                    log[r, L_A + 15] = tmod
                    log[r, L_A + 16] = lunge
                    log[r, L_A + 17] = att
                    log[r, L_A + 18] = resets
            log_effects(log, nlog, w.scratch, ds, turn, win)
            log_effects(log, nlog, w.scratch, ds, turn, lo_)
        if air:
            crash_after_fight(ds, lo_, win, win, wf0, opt, tb, w, cnt, turn, log, nlog)


@game_fn
def crash_after_fight(ds, a, b, win, wf0, opt, tb, w, cnt, turn, log, nlog):
    """The crashes after a close combat in the air (p.17), ``a`` then ``b`` (the loser first):
    a dragon whose speed less 2 falls below its minimum (``OPT_CRASH_SLOW``) or with a zeroed
    tail or wing (``OPT_CRASH_ZEROED``) falls from the altitude of the fight. "If the winner
    crashes, it must also roll for facing after the loser does. It doesn't get to choose its
    facing" (p.22): the winner ``win`` (-1: a draw) rolls the direction template from its
    facing before the fight ``wf0``."""
    scal = tb.scalars
    for i in (a, b):
        if ds[i, F_ALIVE] == 0 or ds[i, F_ALT] == 0:
            continue
        cause = np.int64(-1)
        if crash_after_combat(ds, i, opt, scal):
            cause = CR_SLOW
        elif opt[OPT_CRASH_ZEROED] == 1 and crashes_by_damage(ds, i):
            cause = CR_ZEROED
        if cause < 0:
            continue
        fr = np.int64(-1)
        if i == win:
            fr = roll_d6(w.gst) - 1
            cnt[C_DICE] += 1
        crash(ds, i, cause, opt, tb, w, cnt, turn, log, nlog, fr, (wf0 - fr) % 6)


@game_fn
def end_game(ds, nd, turn, winner, limit_hit, engages, first, cnt, rec, rrow, log, nlog):
    """The game is over: add it to the counters (``C_*``) and, when ``rrow >= 0``, write its
    record (``R_*``; ``first``: the dragon that moved first on turn 1, ``R_FIRST``)."""
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
        count_absorbed(ds, i, cnt)
        cnt[C_DEALT + i] += ds[i, F_DEALT]
        cnt[C_DEALT_SQ + i] += ds[i, F_DEALT] * ds[i, F_DEALT]
    if log is not None:
        r = log_row(log, nlog, ds, turn, K_END, winner, limit_hit)
        if r >= 0:
            log[r, L_A] = 0
    if rrow >= 0:
        rec[rrow, R_WINNER] = winner
        rec[rrow, R_TURNS] = turn
        rec[rrow, R_TURN_LIMIT] = limit_hit
        rec[rrow, R_DEALT0] = ds[0, F_DEALT]
        rec[rrow, R_DEALT1] = ds[1, F_DEALT]
        rec[rrow, R_LEFT0] = points_left(ds, 0)
        rec[rrow, R_LEFT1] = points_left(ds, 1)
        rec[rrow, R_HITS0] = ds[0, F_HITS]
        rec[rrow, R_HITS1] = ds[1, F_HITS]
        rec[rrow, R_ENGAGES] = engages
        rec[rrow, R_FIRST] = first


# =================================================================================================
# one game
# =================================================================================================


@game_fn(inline="always")
def finish_turn(ds, nd, na, k0, opt, tb, range_mod, mv, plan, geo, w, cnt, turn, log, nlog, srch):
    """The rest of a turn from the movement phase on, its speeds recorded: movement from
    initiative slot ``k0`` (:func:`movement`), then, while more than one team is in play,
    with the rider attacks rule the rider actions (:func:`record_rider_actions`,
    :func:`rider_actions`), then breath targets, breath combat and close combat. Returns
    ``(engagements made, teams in play, one such team)``. The game loop calls it with
    ``k0 = 0``; the look-ahead (:mod:`~dragonsim.lords.bots.search`) continues a turn after a move
    it is judging."""
    made = movement(
        ds, nd, na, k0, opt, tb, range_mod, mv, plan, geo, w, cnt, turn, log, nlog, srch
    )
    nteams, last_team = teams_alive(ds, nd)
    if nteams > 1 and (opt[OPT_RIDER_ATTACKS] == 1 or opt[OPT_WIZARD] == 1):
        record_rider_actions(ds, na, opt, tb, plan, range_mod, w, turn, log, nlog)
        rider_actions(ds, nd, na, opt, tb, w, cnt, turn, log, nlog)
        nteams, last_team = teams_alive(ds, nd)
    if nteams > 1:
        record_targets(ds, na, tb, range_mod, plan, w, turn, log, nlog)
        breath_combat(ds, nd, na, opt, tb, range_mod, w, cnt, turn, log, nlog)
        nteams, last_team = teams_alive(ds, nd)
        if nteams > 1:
            close_combat(ds, na, opt, tb, w, cnt, turn, log, nlog)
            nteams, last_team = teams_alive(ds, nd)
    return made, nteams, last_team


@game_fn(inline="always")
def play_game(
    game,
    seed,
    dragons,
    scen,
    opt,
    tb,
    range_mod,
    mv,
    plan,
    geo,
    w,
    cnt,
    rec,
    rrow,
    log,
    nlog,
    srch,
):
    """Play game number ``game`` of the run ``seed`` to the end and add it to ``cnt``.

    Parameters
    ----------
    game, seed : int
        The game's streams are ``(seed, game)`` (:func:`dragonsim.random.seed_stream`).
    dragons : int64 [nd, N_DCOLS]
        Sheet rows (``D_*``).
    scen : int64 [nd, 5]
        Scenario rows (``SC_*``, used when ``opt[OPT_SETUP] == 1``).
    opt : int64 [N_OPT]
        Rules options (``OPT_*``).
    tb : KernelTables
        The rules tables; ``range_mod`` is its range row in force (zeros when
        ``opt[OPT_RANGE_MOD] == 0``).
    mv : MoveTables
    plan : float64 [N_PLAN_ROWS, PLAN_WIDTH]
    geo : int64
        The planners' geometry table (:func:`~dragonsim.lords.bots.plan.geometry_table`).
    w : Work
        Per-chunk scratch.
    cnt : int64 [N_COUNTERS]
        This chunk's counters.
    rec, rrow : int64 [m, N_REC], int
        The game's record goes to row ``rrow`` when ``rrow >= 0``.
    log, nlog : int64 [k, N_LOG], int64 [1], or None, None
        Every decision is logged while ``nlog[0] < k`` (tests); with None (a plain duel) the
        logging code is not compiled at all (numba prunes ``if log is not None`` branches).
    srch : SearchWork or None
        The look-ahead's scratch when a dragon plays the ``search`` bot
        (:func:`~dragonsim.lords.bots.search.new_search_work`), else None.
    """
    nd = dragons.shape[0]
    ds = w.ds[:nd]  # loops over dragons run over the ones in this game only
    # Counts and purposes start as int64, not as literals: numba would compile a callee once
    # for the literal types of its first typing pass and once more for int64.
    seed_stream(w.gst, seed, game, np.int64(STREAM_GAME))
    seed_stream(w.pst, seed, game, np.int64(STREAM_POLICY))
    seed_stream(w.sst, seed, game, np.int64(STREAM_SETUP))
    begin_game(ds, nd, dragons, scen, opt, tb, w, cnt, log, nlog)
    engages = np.int64(0)
    turn = np.int64(0)
    winner = np.int64(-1)
    limit_hit = np.int64(0)
    first = np.int64(-1)  # the dragon that moved first on turn 1 (records only)
    nteams, last_team = teams_alive(ds, nd)
    while True:
        if nteams <= 1:
            winner = last_team if nteams == 1 else -1
            break
        if turn >= opt[OPT_TURN_LIMIT]:
            limit_hit = 1
            winner = -1
            break
        turn += 1
        if log is not None:
            forced_turn(w.gst, turn)  # a scripted game's dice for this turn
        na = initiative(ds, nd, opt, tb, w, cnt)
        if turn == 1:
            first = w.order[0]
        if log is not None:
            for k in range(na):
                r = log_row(log, nlog, ds, turn, K_INIT, w.order[k], -1)
                if r >= 0:
                    log[r, L_A] = k
        record_speeds(ds, na, opt, tb, w, cnt, turn, log, nlog)
        made, nteams, last_team = finish_turn(
            ds, nd, na, 0, opt, tb, range_mod, mv, plan, geo, w, cnt, turn, log, nlog, srch
        )
        engages += made
    end_game(ds, nd, turn, winner, limit_hit, engages, first, cnt, rec, rrow, log, nlog)


# =================================================================================================
# the kernels
# =================================================================================================


@game_fn(nogil=True)
def play_chunks(
    c0,
    c1,
    nchunks,
    start,
    n,
    seed,
    dragons,
    scen,
    opt,
    tb,
    range_mod,
    mv,
    plan,
    geo,
    out,
    rec,
    w,
    srch,
):
    """Play the games of chunks ``c0..c1-1`` (of ``nchunks`` over games ``start..start+n-1``)
    serially, chunk ``c`` into counter row ``out[c]``, in the caller's scratch ``w``
    (:func:`new_work`) and ``srch`` (the look-ahead's, or None); records into ``rec`` when it
    has a row per game. Releases the GIL: :func:`duel_kernel` runs one call per thread.

    A :func:`~dragonsim._kernels.game_fn` like every function it inlines: with reference
    counting, each array the inlined game hands to a phase was counted in and out, about
    two fifths of a turn."""
    want_rec = rec.shape[0] == n
    for c in range(c0, c1):
        a, b = chunk_bounds(start, n, c, nchunks)
        row = out[c]
        for g in range(a, b):
            rrow = g - start if want_rec else -1
            play_game(
                g,
                seed,
                dragons,
                scen,
                opt,
                tb,
                range_mod,
                mv,
                plan,
                geo,
                w,
                row,
                rec,
                rrow,
                None,
                None,
                srch,
            )


@njit(cache=True)
def kernel_inputs(tb, opt):
    """``(range_mod, geo)``, built once per kernel call: the To-Hit range row in force
    (``tb.range_mod``, or zeros when ``opt[OPT_RANGE_MOD]`` is 0: the Example of Play, pp.
    36-37, reads no range modifier) and the planners' geometry table."""
    range_mod = tb.range_mod.copy()
    if opt[OPT_RANGE_MOD] == 0:
        range_mod[:] = 0
    scal = tb.scalars
    geo = geometry_table(
        tb.arc, range_mod, scal[S_MAX_RANGE], scal[S_BOARD_WIDTH], scal[S_BOARD_DEPTH]
    )
    return range_mod, geo


_POOLS: dict[int, ThreadPoolExecutor] = {}  # one pool per thread count, kept between calls
_POOLS_LOCK = threading.Lock()


def _pool(threads: int) -> ThreadPoolExecutor:
    """The pool of ``threads`` workers. Pools are kept, never shut down, so callers on several
    Python threads at once (a Dask threaded scheduler) each submit to a live pool."""
    with _POOLS_LOCK:
        if threads not in _POOLS:
            _POOLS[threads] = ThreadPoolExecutor(
                max_workers=threads, thread_name_prefix="dragonsim-lords"
            )
        return _POOLS[threads]


def duel_kernel(start, stop, seed, dragons, scen, opt, tb, mv, plan, rec):
    """Play games ``start..stop-1`` and return their counters.

    The games are cut into ``n_chunks`` chunks, each owning a counter row; the chunks are
    shared out in contiguous runs to ``numba.get_num_threads()`` threads, each running the
    compiled :func:`play_chunks` without the GIL, and the rows are summed. (A ``prange``
    kernel did the same but doubled the cold-start compile: numba's parallel machinery
    compiles and optimises the whole game again.) Each game plays from its own streams, so the
    counters do not depend on the thread count.

    Parameters
    ----------
    start, stop, seed : int
        Game indices and the run's seed (each game has its own streams).
    dragons : int64 [nd, N_DCOLS]
        Sheet rows (body, wings, breath, claws, rider, MR, team, policy id, breadth).
    scen : int64 [nd, 5]
        Scenario rows (used when ``opt[OPT_SETUP] == 1``).
    opt : int64 [N_OPT]
        Rules options, see ``OPT_*``.
    tb : KernelTables
        The rules tables (:func:`dragonsim.lords.game.tables.kernel_tables`).
    mv : MoveTables
    plan : float64 [N_PLAN_ROWS, PLAN_WIDTH]
    rec : int64 [stop - start, N_REC] or [0, N_REC]
        Per-game records, filled when it has a row per game.

    Returns
    -------
    int64 [N_COUNTERS]
    """
    n = int(stop) - int(start)
    nchunks = n_chunks(n)
    out = np.zeros((nchunks, N_COUNTERS), dtype=np.int64)
    range_mod, geo = kernel_inputs(tb, opt)
    args = (nchunks, int(start), n, int(seed), dragons, scen, opt, tb, range_mod, mv, plan, geo)
    threads = min(numba.get_num_threads(), nchunks)
    if threads <= 1:
        play_chunks(0, nchunks, *args, out, rec, new_work(), _search_work(dragons))
    else:
        runs = [(nchunks * t // threads, nchunks * (t + 1) // threads) for t in range(threads)]
        pool = _pool(threads)
        jobs = [
            pool.submit(play_chunks, c0, c1, *args, out, rec, new_work(), _search_work(dragons))
            for c0, c1 in runs
        ]
        for j in jobs:
            j.result()
    return out.sum(axis=0)


def _search_work(dragons):
    """The look-ahead's scratch when a dragon of ``dragons`` plays the ``search`` bot, else
    None (then no look-ahead is compiled into the game)."""
    if any(_bots.FAMILIES[int(p)] == FAMILY_SEARCH for p in dragons[:, D_POLICY]):
        return _search.new_search_work()
    return None


def logged_game(game, seed, dragons, scen, opt, tb, mv, plan, max_log, work=None):
    """Play one game (serially) and return ``(counters, log)``; the log has one row per
    decision (``K_*`` kinds) for the legality checker. ``work``: the game's scratch
    (default fresh, :func:`new_work`); a scripted game's carries its forced dice and
    decisions in place of the game and policy streams (:mod:`dragonsim.lords.views.script`)."""
    w = new_work() if work is None else work
    return _logged_game(
        game, seed, dragons, scen, opt, tb, mv, plan, max_log, w, _search_work(dragons)
    )


@njit(cache=True)
def _logged_game(game, seed, dragons, scen, opt, tb, mv, plan, max_log, w, srch):
    range_mod, geo = kernel_inputs(tb, opt)
    log = np.zeros((max_log, N_LOG), np.int64)
    nlog = np.zeros(1, np.int64)
    cnt = np.zeros(N_COUNTERS, np.int64)
    rec = np.zeros((0, N_REC), np.int64)
    play_game(
        game,
        seed,
        dragons,
        scen,
        opt,
        tb,
        range_mod,
        mv,
        plan,
        geo,
        w,
        cnt,
        rec,
        -1,
        log,
        nlog,
        srch,
    )
    return cnt, log[: nlog[0]]


guard_caches(
    sys.modules[__name__],
    [
        state,
        movetables,
        mechanics,
        _bots,
        _dispatch,
        _plan,
        _planner,
        _random_bot,
        _scripted,
        _tactics,
        _search,
        hexes,
        tables,
        _random,
        _llvm,
        _kernels,
        defaults,
    ],
)

__all__ = [
    "Work",
    "new_work",
    "init_dragons",
    "place_dragons",
    "begin_game",
    "initiative",
    "record_speeds",
    "bot_move",
    "movement",
    "finish_turn",
    "record_targets",
    "breath_combat",
    "critical",
    "fumble",
    "close_combat",
    "end_game",
    "play_game",
    "play_chunks",
    "kernel_inputs",
    "duel_kernel",
    "logged_game",
]
