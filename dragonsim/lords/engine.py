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

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from .. import defaults
from ..random import STREAM_GAME, STREAM_POLICY, STREAM_SETUP, below, d6, roll, seed_stream
from .hexes import (
    arc_area,
    direction_template,
    facing_toward,
)
from .policies import (
    F_ALIVE,
    F_ALT,
    F_BODY,
    F_BREATH,
    F_BREATH0,
    F_CLAW,
    F_CLAW0,
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
    NF,
    can_engage,
    choose_engage,
    choose_facing,
    choose_move,
    choose_side,
    choose_speed,
    choose_target,
    geometry_table,
    target_number,
)
from .tables import (
    S_ACCEL,
    S_ALTITUDE_LEVELS,
    S_AUTO_HIT,
    S_AUTO_MISS,
    S_BASE_TO_HIT,
    S_BOARD_DEPTH,
    S_BOARD_WIDTH,
    S_BREATH_STEPS_LOST,
    S_CC_ALTITUDE_DROP,
    S_CC_SELF_DAMAGE_DICE,
    S_CC_SPEED_LOSS,
    S_CLAW_STEPS_LOST,
    S_COOLDOWN_FACTOR,
    S_HEAD_POINTS,
    S_LANCER_CC,
    S_LANCER_DAMAGE,
    S_MAX_RANGE,
    S_MR_STEPS_LOST,
    S_SELF_DAMAGE_POLICY,
    S_SERIOUS_DEN,
    S_SERIOUS_NUM,
    S_SPEED_LOST_PER_WING,
    S_STREAK_MAX_TURNS,
    S_STREAK_THRESHOLD,
    S_TAIL_POINTS,
)

F_COOL = 7  # re-exported for readers of this module (defined in policies)

# ---- options: the one structure for rules options -----------------------------------------------
OPT_TURN_LIMIT = 0  # turns before a game is called a stalemate (draw, counted separately)
OPT_INIT_MOD = 1  # 1: advanced initiative modifiers by MR (p.15, optional)
OPT_RIDERS = 2  # 1: riders' close-combat abilities (Lancer +2 / +4, p.18; advanced)
OPT_PLAN_SAMPLES = 3  # end states a planning bot scores per altitude change
OPT_RANGE_MOD = 4  # 1: the range row of the To-Hit table (0 reproduces the Example of Play)
OPT_ACCEL_WINGS = 5  # 1: advanced acceleration allowance by wing size (p.16, optional)
OPT_SETUP = 6  # 0: rulebook placement along edges; 1: the caller's scenario
N_OPT = 8

DEFAULT_TURN_LIMIT = defaults.TURN_LIMIT
DEFAULT_PLAN_SAMPLES = defaults.PLAN_SAMPLES


def default_options(
    *,
    turn_limit: int = DEFAULT_TURN_LIMIT,
    plan_samples: int = DEFAULT_PLAN_SAMPLES,
    init_mod: bool = False,
    riders: bool = False,
    range_mod: bool = True,
    accel_wings: bool = False,
    scenario: bool = False,
) -> np.ndarray:
    """The int64 options array (see the ``OPT_*`` constants)."""
    o = np.zeros(N_OPT, dtype=np.int64)
    o[OPT_TURN_LIMIT] = turn_limit
    o[OPT_INIT_MOD] = int(init_mod)
    o[OPT_RIDERS] = int(riders)
    o[OPT_PLAN_SAMPLES] = plan_samples
    o[OPT_RANGE_MOD] = int(range_mod)
    o[OPT_ACCEL_WINGS] = int(accel_wings)
    o[OPT_SETUP] = int(scenario)
    return o


# ---- dragons: one int64 row per dragon for the kernel ------------------------------------------
D_BODY, D_WINGS, D_BREATH, D_CLAWS, D_RIDER, D_MR, D_TEAM, D_POLICY = range(8)
D_SAMPLES = 8  # this dragon's planning breadth (``hunter:N``); 0: the run's OPT_PLAN_SAMPLES
N_DCOLS = 9
MAXD = 8

# ---- scenario rows (OPT_SETUP = 1) ---------------------------------------------------------------
SC_Q, SC_R, SC_F, SC_ALT, SC_SPEED = range(5)  # SC_SPEED: last turn's speed, -1 = free choice

# ---- counters -----------------------------------------------------------------------------------
C_GAMES = 0
C_DRAWS = 1
C_TURN_LIMIT = 2  # games stopped by the turn limit (also counted in C_DRAWS)
C_TURNS = 3
C_TURNS_SQ = 4
C_DICE = 5  # d6 rolled from the game streams
C_BREATHS = 6
C_BREATH_HITS = 7
C_ENGAGES = 8
C_LEFT_BOARD = 9
C_WIN = 10  # + team, MAXD slots
C_DEALT = C_WIN + MAXD  # + dragon slot: damage dealt
C_DEALT_SQ = C_DEALT + MAXD
C_TN_TRIES = C_DEALT_SQ + MAXD  # + target number 0..31 (clamped)
C_TN_HITS = C_TN_TRIES + 32
C_LOC = C_TN_HITS + 32  # + 5 * direction + part: breath hit locations
C_CC = C_LOC + 30  # + 3 * (modifier difference + 20) + outcome (0 win, 1 draw, 2 loss)
C_TURN_HIST = C_CC + 3 * 41  # + turns (clamped to HIST_MAX)
HIST_MAX = 100
N_COUNTERS = C_TURN_HIST + HIST_MAX + 1

# ---- per-game records ---------------------------------------------------------------------------
R_WINNER = 0  # winning team, -1 draw
R_TURNS = 1
R_TURN_LIMIT = 2
R_DEALT0 = 3  # damage dealt by dragon 0, 1
R_DEALT1 = 4
R_LEFT0 = 5  # damage points left, dragon 0, 1
R_LEFT1 = 6
R_HITS0 = 7
R_HITS1 = 8
R_ENGAGES = 9
N_REC = 10

# ---- move log (tests: the legality checker) ------------------------------------------------------
L_TURN, L_KIND, L_I, L_J = range(4)
L_A = 4  # 12 kind-specific values from here
L_SNAP = 16  # snapshot: MAXD x (q, r, f, alt, alive, eng, moved) before the decision
N_SNAP = 7
N_LOG = L_SNAP + MAXD * N_SNAP
K_SETUP, K_SPEED, K_MOVE, K_LEAVE, K_ENGAGE, K_TARGET, K_CC, K_END = range(8)


# =================================================================================================
# move tables
# =================================================================================================


class MoveTables(NamedTuple):
    """Legal move end states relative to the start, per MR and geometric budget.

    ``off[mr, b]:off[mr, b + 1]`` are the entries of budget ``b`` (hexes + turn points) for
    maneuverability index ``mr``. Per entry (int8 arrays): ``dq, dr`` offset and ``f`` facing
    change for a dragon facing E; ``h`` hexes flown (capped at 4: enough for any altitude
    change); ``rq[e, F], rr[e, F]`` the offset rotated for facing ``F``; ``box[e, F, :]`` the
    path's bounding box for facing ``F``: min/max row offset, min/max column offset on even
    rows, min/max column offset on odd rows.

    The planners read the same entries through a cache-friendly copy: within each
    ``(mr, b)`` block of ``c`` entries, position ``p`` holds entry ``(p * step) % c`` (the
    stride of their scattered sample, 101 or 103), so a scattered visit from entry ``k`` is a
    sequential walk from position ``(k * inv[mr, b]) % c``. ``pk[F, p, :]`` packs what a
    planner reads for facing ``F`` into 16 bytes (rq, rr, the six box values, h, f, and the
    facing at the end) and ``pe[p]`` is the entry at position ``p``.

    ``tg`` finds an entry by where it ends: block ``(mr, b)`` owns ``tg[tg_off[mr, b]:]``, a
    grid over the end offsets ``|dq|, |dr| <= b`` of a dragon facing E and the facing change
    ``f``, entry ``tg[tg_off[mr, b] + ((dq + b) * (2 b + 1) + dr + b) * 6 + f]`` or -1
    (``tg_off`` -1 for an empty block). The hunter looks up the end states behind its enemy
    there (:func:`~dragonsim.lords.policies.choose_move`).
    """

    off: np.ndarray
    dq: np.ndarray
    dr: np.ndarray
    f: np.ndarray
    h: np.ndarray
    rq: np.ndarray
    rr: np.ndarray
    box: np.ndarray
    pk: np.ndarray
    pe: np.ndarray
    inv: np.ndarray
    tg: np.ndarray
    tg_off: np.ndarray


#: Packed planner record fields (``MoveTables.pk``).
PK_RQ, PK_RR, PK_BOX, PK_H, PK_F, PK_F_END = 0, 1, 2, 8, 9, 10
PK_WIDTH = 16


def scatter_step(c: int) -> int:
    """The stride of a planner's scattered visit of a block of ``c`` entries (coprime to c)."""
    return 101 if c % 101 != 0 else 103


def _packed(
    off: np.ndarray, f: np.ndarray, h: np.ndarray, rq: np.ndarray, rr: np.ndarray, box: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n = f.shape[0]
    pe = np.arange(n, dtype=np.int64)
    inv = np.zeros(off.shape, dtype=np.int64)
    for m in range(off.shape[0]):
        for b in range(off.shape[1] - 1):
            a, z = int(off[m, b]), int(off[m, b + 1])
            c = z - a
            if c <= 0:
                continue
            step = scatter_step(c)
            if np.gcd(step, c) != 1:
                raise ValueError(f"a move block of {c} entries shares a factor with {step}")
            pe[a:z] = a + (np.arange(c, dtype=np.int64) * step) % c
            inv[m, b] = pow(step, -1, c) if c > 1 else 0
    pk = np.zeros((6, n, PK_WIDTH), dtype=np.int8)
    pk[:, :, PK_RQ] = rq[pe].T
    pk[:, :, PK_RR] = rr[pe].T
    pk[:, :, PK_BOX : PK_BOX + 6] = box[pe].transpose(1, 0, 2)
    pk[:, :, PK_H] = h[pe][None, :]
    pk[:, :, PK_F] = f[pe][None, :]
    pk[:, :, PK_F_END] = (np.arange(6)[:, None] + f[pe][None, :]) % 6
    return pk, pe.astype(np.int32), inv


MAX_BUDGET = 21  # speed 15 (+2 for Quicken) plus four free dives


@njit(cache=True)
def _sidx(s, lt, hb, f, x, y, g):
    return ((((s * 2 + lt) * 5 + hb) * 6 + f) * g + x) * g + y


@njit(cache=True)
def _move_dp(cost, nbud):
    """Bottleneck-shortest DP over (points spent, last was turn, hexes (cap 4), facing, hex)."""
    rad = nbud + 1
    g = 2 * rad + 1
    size = (nbud + 1) * 2 * 5 * 6 * g * g
    val = np.full(size, 127, dtype=np.int8)
    par = np.full(size, -1, dtype=np.int32)
    dqs = (1, 1, 0, -1, -1, 0)
    drs = (0, -1, -1, 0, 1, 1)
    turns = (1, -1, 2, -2, 3)
    val[_sidx(0, 0, 0, 0, rad, rad, g)] = 0
    for s in range(nbud + 1):
        for lt in range(2):
            for hb in range(5):
                for f in range(6):
                    for x in range(g):
                        for y in range(g):
                            i = _sidx(s, lt, hb, f, x, y, g)
                            v = val[i]
                            if v == 127:
                                continue
                            if s + 1 <= nbud:
                                nx = x + dqs[f]
                                ny = y + drs[f]
                                a = nx - rad
                                b = ny - rad
                                d = (abs(a) + abs(b) + abs(a + b)) // 2
                                nv = v if v > d else d
                                hb2 = hb + 1 if hb < 4 else 4
                                j = _sidx(s + 1, 0, hb2, f, nx, ny, g)
                                if nv < val[j]:
                                    val[j] = nv
                                    par[j] = i
                            if lt == 0:
                                for k in turns:
                                    c = cost[abs(k)]
                                    if s + c <= nbud:
                                        j = _sidx(s + c, 1, hb, (f + k) % 6, x, y, g)
                                        if v < val[j]:
                                            val[j] = v
                                            par[j] = i
    return val, par


@njit(cache=True)
def _rot(a, b, k):
    for _ in range(k):
        a, b = a + b, -a
    return a, b


@njit(cache=True)
def _extract(val, par, nbud):
    rad = nbud + 1
    g = 2 * rad + 1
    # pass 1: count end states per budget
    counts = np.zeros(nbud + 2, dtype=np.int64)
    for s in range(nbud + 1):
        for f in range(6):
            for x in range(g):
                for y in range(g):
                    found = False
                    for lt in range(2):
                        for hb in range(5):
                            if val[_sidx(s, lt, hb, f, x, y, g)] != 127:
                                found = True
                    if found:
                        counts[s + 1] += 1
    off = np.cumsum(counts)
    n = off[-1]
    dq = np.zeros(n, np.int8)
    dr = np.zeros(n, np.int8)
    ff = np.zeros(n, np.int8)
    hh = np.zeros(n, np.int8)
    rq = np.zeros((n, 6), np.int8)
    rr = np.zeros((n, 6), np.int8)
    box = np.zeros((n, 6, 6), np.int8)
    pq = np.zeros(64, np.int64)
    pr = np.zeros(64, np.int64)
    e = 0
    for s in range(nbud + 1):
        for f in range(6):
            for x in range(g):
                for y in range(g):
                    bi = -1
                    bh = -1
                    bv = 127
                    for hb in range(5):
                        for lt in range(2):
                            i = _sidx(s, lt, hb, f, x, y, g)
                            v = val[i]
                            if v == 127:
                                continue
                            if hb > bh or (hb == bh and v < bv):
                                bh = hb
                                bv = v
                                bi = i
                    if bi < 0:
                        continue
                    dq[e] = x - rad
                    dr[e] = y - rad
                    ff[e] = f
                    hh[e] = bh
                    # the path's hexes (start included)
                    npth = 0
                    i = bi
                    while i >= 0:
                        yy = i % g
                        xx = (i // g) % g
                        pq[npth] = xx - rad
                        pr[npth] = yy - rad
                        npth += 1
                        i = par[i]
                    for k in range(6):
                        a, b = _rot(x - rad, y - rad, k)
                        rq[e, k] = a
                        rr[e, k] = b
                        lo_r = 99
                        hi_r = -99
                        lo0 = 99
                        hi0 = -99
                        lo1 = 99
                        hi1 = -99
                        for m in range(npth):
                            a, b = _rot(pq[m], pr[m], k)
                            c0 = a + b // 2
                            c1 = a + (b + 1) // 2
                            lo_r = min(lo_r, b)
                            hi_r = max(hi_r, b)
                            lo0 = min(lo0, c0)
                            hi0 = max(hi0, c0)
                            lo1 = min(lo1, c1)
                            hi1 = max(hi1, c1)
                        box[e, k, 0] = lo_r
                        box[e, k, 1] = hi_r
                        box[e, k, 2] = lo0
                        box[e, k, 3] = hi0
                        box[e, k, 4] = lo1
                        box[e, k, 5] = hi1
                    e += 1
    return off, dq, dr, ff, hh, rq, rr, box


_MOVE_PARTS: dict[bytes, tuple] = {}


def move_tables(turn_cost: np.ndarray, max_budget: int = MAX_BUDGET, mrs=None) -> MoveTables:
    """Precompute the move end states for the maneuverability ratings ``mrs`` (default all).

    Ratings not listed get no entries (a dragon with such a rating would have no move), so
    callers list every rating a dragon can reach: its sheet's and the one serious tail damage
    gives (:func:`needed_mrs`).

    Parameters
    ----------
    turn_cost : int64 [n_mr, 4]
        Cost to turn 0, 60, 120, 180 degrees by MR (``KernelTables.turn_cost``).
    max_budget : int
        Largest geometric budget (hexes + turn points) to enumerate.
    mrs : iterable of int, optional
        Which maneuverability indices to enumerate.
    """
    turn_cost = np.ascontiguousarray(turn_cost, dtype=np.int64)
    nmr = turn_cost.shape[0]
    want = set(range(nmr)) if mrs is None else {int(m) for m in mrs}
    parts = []
    for mr in range(nmr):
        if mr not in want:
            parts.append(None)
            continue
        key = turn_cost[mr].tobytes() + bytes([max_budget])
        if key not in _MOVE_PARTS:
            val, par = _move_dp(turn_cost[mr], max_budget)
            _MOVE_PARTS[key] = _extract(val, par, max_budget)
        parts.append(_MOVE_PARTS[key])
    off = np.zeros((nmr, max_budget + 2), dtype=np.int64)
    base = 0
    for m, p in enumerate(parts):
        if p is None:
            off[m] = base
            continue
        off[m] = p[0] + base
        base += int(p[0][-1])
    real = [p for p in parts if p is not None]
    cat = [np.concatenate([p[k] for p in real]) for k in range(1, 8)]
    _dq, _dr, f, h, rq, rr, box = cat
    return MoveTables(off, *cat, *_packed(off, f, h, rq, rr, box), *_target_grid(off, _dq, _dr, f))


def _target_grid(
    off: np.ndarray, dq: np.ndarray, dr: np.ndarray, f: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``(tg, tg_off)`` of :class:`MoveTables`: each block's entries by end offset and facing
    change (a move ends at most ``b`` hexes away on a budget of ``b`` points)."""
    tg_off = np.full((off.shape[0], off.shape[1] - 1), -1, dtype=np.int64)
    total = 0
    for m in range(off.shape[0]):
        for b in range(off.shape[1] - 1):
            if off[m, b + 1] > off[m, b]:
                tg_off[m, b] = total
                total += (2 * b + 1) ** 2 * 6
    tg = np.full(total, -1, dtype=np.int32)
    for m in range(off.shape[0]):
        for b in range(off.shape[1] - 1):
            a, z = int(off[m, b]), int(off[m, b + 1])
            if z <= a:
                continue
            q = dq[a:z].astype(np.int64)
            r = dr[a:z].astype(np.int64)
            if np.abs(q).max() > b or np.abs(r).max() > b:
                raise ValueError(f"a move of budget {b} ends more than {b} hexes away")
            idx = tg_off[m, b] + ((q + b) * (2 * b + 1) + r + b) * 6 + f[a:z]
            if np.unique(idx).shape[0] != z - a:
                raise ValueError("two entries of a move block end in the same state")
            tg[idx] = np.arange(a, z, dtype=np.int32)
    return tg, tg_off


def needed_mrs(sheets_mr, mr_steps: int, n_mr: int = 9) -> list[int]:
    """Maneuverability indices dragons with sheet ratings ``sheets_mr`` can have in a game:
    their own and the one serious tail damage leaves them (``mr_steps`` down, minimum I)."""
    out = set()
    for m in sheets_mr:
        out.add(int(m))
        out.add(min(n_mr - 1, int(m) + int(mr_steps)))
    return sorted(out)


# =================================================================================================
# rules mechanics (dice passed in)
# =================================================================================================


@njit(cache=True, _nrt=False)
def refresh(ds, i, scal):
    """Serious damage effects and removal for dragon ``i`` from its damage points.

    "As each body part is reduced to less than half of its original damage points": head ->
    breath one step down (minimum Cold), body -> tooth and claw one step down, each wing ->
    maximum speed -2, tail -> maneuverability two steps down (minimum I); "if any of a
    dragon's body part damage tracks is reduced to 0 points, the dragon ... is removed".
    """
    num = scal[S_SERIOUS_NUM]
    den = scal[S_SERIOUS_DEN]
    dead = False
    for p in range(5):
        if ds[i, F_DP + p] <= 0:
            dead = True
    head = 1 if ds[i, F_DP + 0] * den < ds[i, F_DP0 + 0] * num else 0
    body = 1 if ds[i, F_DP + 1] * den < ds[i, F_DP0 + 1] * num else 0
    tail = 1 if ds[i, F_DP + 2] * den < ds[i, F_DP0 + 2] * num else 0
    lw = 1 if ds[i, F_DP + 3] * den < ds[i, F_DP0 + 3] * num else 0
    rw = 1 if ds[i, F_DP + 4] * den < ds[i, F_DP0 + 4] * num else 0
    b = ds[i, F_BREATH0] - scal[S_BREATH_STEPS_LOST] * head
    ds[i, F_BREATH] = b if b > 0 else 0
    c = ds[i, F_CLAW0] - scal[S_CLAW_STEPS_LOST] * body
    ds[i, F_CLAW] = c if c > 0 else 0
    m = ds[i, F_MR0] + scal[S_MR_STEPS_LOST] * tail
    ds[i, F_MR] = m if m < 8 else 8
    ds[i, F_MAX] = ds[i, F_MAX0] - scal[S_SPEED_LOST_PER_WING] * (lw + rw)
    if dead:
        ds[i, F_ALIVE] = 0


@njit(cache=True, _nrt=False)
def damage(ds, t, part, amount):
    """Tick ``amount`` points off ``t``'s ``part`` (not below 0); returns the points taken."""
    left = ds[t, F_DP + part]
    took = amount if amount < left else left
    if took < 0:
        took = 0
    ds[t, F_DP + part] = left - took
    return took


@njit(cache=True, _nrt=False)
def speed_limits(ds, i, scal, accel_wings, opt):
    """``(lo, hi)`` for the speed dragon ``i`` may record this turn.

    "within the minimum and maximum speed"; "can't be more than 3 points faster than you moved
    last turn" (first turn: any speed); "speeds of 10 or more for a maximum of three consecutive
    turns"; after slowing, "two turns at speed 9 or less for every turn it spent at or above 10".
    """
    lo = ds[i, F_MIN]
    hi = ds[i, F_MAX]
    if ds[i, F_LAST] >= 0:
        acc = scal[S_ACCEL]
        if opt[OPT_ACCEL_WINGS] == 1:
            acc = accel_wings[ds[i, F_WINGS]]
        if ds[i, F_LAST] + acc < hi:
            hi = ds[i, F_LAST] + acc
    thr = scal[S_STREAK_THRESHOLD]
    if ds[i, F_STREAK] >= scal[S_STREAK_MAX_TURNS] or ds[i, 7] > 0:
        if hi > thr - 1:
            hi = thr - 1
    if hi < lo:
        hi = lo
    return lo, hi


@njit(cache=True, _nrt=False)
def record_speed(ds, i, speed, scal):
    """Record ``speed`` and advance the speed-10 streak / cool-down bookkeeping."""
    thr = scal[S_STREAK_THRESHOLD]
    ds[i, F_SPEED] = speed
    if speed >= thr:
        ds[i, F_STREAK] += 1
    else:
        if ds[i, F_STREAK] > 0:
            # this turn is the first of the 2-per-turn cool-down
            ds[i, 7] = scal[S_COOLDOWN_FACTOR] * ds[i, F_STREAK] - 1
            ds[i, F_STREAK] = 0
        elif ds[i, 7] > 0:
            ds[i, 7] -= 1
    ds[i, F_LAST] = speed


@njit(cache=True, _nrt=False)
def apply_move(ds, i, e, dalt, mv_rq, mv_rr, mv_f):
    """Move dragon ``i`` by move-table entry ``e`` and altitude change ``dalt``."""
    f0 = ds[i, F_F]
    ds[i, F_Q] += mv_rq[e, f0]
    ds[i, F_R] += mv_rr[e, f0]
    ds[i, F_F] = (f0 + mv_f[e]) % 6
    ds[i, F_ALT] += dalt
    ds[i, F_MOVED] = 1


@njit(cache=True, _nrt=False)
def breath_hit(hit_roll, tn, auto_miss, auto_hit):
    """ "Roll 2d6. If the result is equal to or higher than your final modified target number,
    you hit ... A roll of 2 always misses, and a roll of 12 always hits"."""
    if hit_roll <= auto_miss:
        return False
    return hit_roll >= auto_hit or hit_roll >= tn


@njit(cache=True, _nrt=False)
def cc_modifier(ds, i, cc_by_mr, scal, opt):
    m = cc_by_mr[ds[i, F_MR]]
    if opt[OPT_RIDERS] == 1 and ds[i, F_RIDER] == 1:
        m += scal[S_LANCER_CC]
    return m


@njit(cache=True, _nrt=False)
def cc_begin(ds, a, b, scal):
    """ "both dragons automatically drop one altitude level"; "both dragons subtract 2 from their
    current speed ... If subtracting 2 ... would cause it to drop below its minimum speed,
    simply record the dragon's minimum speed"."""
    for i in (a, b):
        ds[i, F_ALT] -= scal[S_CC_ALTITUDE_DROP]
        if ds[i, F_ALT] < 1:
            ds[i, F_ALT] = 1
        s = ds[i, F_SPEED] - scal[S_CC_SPEED_LOSS]
        if s < ds[i, F_MIN]:
            s = ds[i, F_MIN]
        ds[i, F_LAST] = s


@njit(cache=True, _nrt=False)
def resolve_breath(ds, a, t, side, loc_roll, dmg_roll, tb_alloc, tb_weapon):
    """A breath hit of ``a`` on ``t`` from direction ``side`` (0 F .. 5 FL): "Roll 2d6 and
    cross-reference that number with the direction the attack came from on the Damage
    Allocation Table", then the breath weapon's dice (``dmg_roll`` = their sum) plus its bonus.
    Ticks the points off and credits ``a``; returns the part hit."""
    part = tb_alloc[loc_roll, side]
    dmg = dmg_roll + tb_weapon[ds[a, F_BREATH], 1]
    ds[a, F_DEALT] += damage(ds, t, part, dmg)
    return part


@njit(cache=True, _nrt=False)
def cc_winner(ds, a, b, ra, rb, cc_by_mr, scal, opt):
    """ "Both ... roll 2d6 and add the close combat modifiers ... The highest modified result
    wins the combat. If the numbers are tied, the combat is a draw" (-1)."""
    sa = ra + cc_modifier(ds, a, cc_by_mr, scal, opt)
    sb = rb + cc_modifier(ds, b, cc_by_mr, scal, opt)
    if sa == sb:
        return -1
    return a if sa > sb else b


@njit(cache=True, _nrt=False)
def resolve_close_combat(
    ds,
    w,
    l,
    col,
    loc_roll,
    dmg_roll,
    self_roll,
    facing_roll,
    winner_facing,
    tb_alloc,
    tb_weapon,
    scal,
    opt,
):
    """The rest of a decided close combat: "the winning dragon then rolls 1d6 to determine
    ... which column to use" (``col`` 0..5), 2d6 location, tooth and claw dice (sum
    ``dmg_roll``); the winner takes ``self_roll`` points itself; "The loser now rolls 1d6 and
    consults the direction template. This is the direction (relative to its original facing)
    in which the losing dragon is now facing" (``facing_roll`` 0..5 = template hexside); the
    winner turns to ``winner_facing``. Returns the part hit."""
    part = tb_alloc[loc_roll, col]
    dmg = dmg_roll + tb_weapon[ds[w, F_CLAW], 1]
    if opt[OPT_RIDERS] == 1 and ds[w, F_RIDER] == 1:
        dmg += scal[S_LANCER_DAMAGE]
    ds[w, F_DEALT] += damage(ds, l, part, dmg)
    allocate_self_damage(ds, w, self_roll, scal[S_SELF_DAMAGE_POLICY], scal)
    ds[l, F_F] = (ds[l, F_F] - facing_roll) % 6
    ds[w, F_F] = winner_facing
    refresh(ds, w, scal)
    refresh(ds, l, scal)
    return part


@njit(cache=True, _nrt=False)
def allocate_self_damage(ds, i, pts, mode, scal):
    """The close-combat winner's own 1d6 ("allocate that many points of damage anywhere"):
    mode 0 spreads point by point over the parts with most points left, never making a part
    seriously damaged or destroyed when another choice exists; 1 all on the body; 2 all on the
    part with most points left. Returns points taken."""
    num = scal[S_SERIOUS_NUM]
    den = scal[S_SERIOUS_DEN]
    took = 0
    if mode == 1:
        return damage(ds, i, 1, pts)
    if mode == 2:
        bp = 0
        for p in range(5):
            if ds[i, F_DP + p] > ds[i, F_DP + bp]:
                bp = p
        return damage(ds, i, bp, pts)
    for _ in range(pts):
        best = -1
        bestv = -1
        tier = -1
        for p in range(5):
            left = ds[i, F_DP + p]
            if left <= 0:
                continue
            after = left - 1
            t = 0
            if after > 0:
                t = 1
                d0 = ds[i, F_DP0 + p] * num
                if after * den >= d0 or left * den < d0:
                    t = 2  # stays healthy, or is already seriously damaged
            if t > tier or (t == tier and left > bestv):
                tier = t
                bestv = left
                best = p
        if best < 0:
            break
        took += damage(ds, i, best, 1)
    return took


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

    ``geo`` is the planners' geometry table (:func:`~dragonsim.lords.policies.geometry_table`).

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
                        ds[i, 7],
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


def _drop_stale_caches() -> None:
    """Key the on-disk numba caches of this module and of :mod:`.policies` on the sources they
    compile in.

    numba invalidates a cached function only when *its own* file changes, but the kernel
    compiles in code from ``policies.py``, ``hexes.py``, ``tables.py``, ``random.py`` and
    ``_llvm.py``; after an edit there (or a ``git pull`` that touches only those) a stale
    kernel would load. A hash of those files is kept beside the cache and the caches are
    flushed when it differs.
    """
    import hashlib
    import os

    from .. import _llvm
    from .. import random as _random
    from . import hexes as _hexes
    from . import policies as _policies
    from . import tables as _tables

    mods = (__import__(__name__, fromlist=["_"]), _policies)
    files = [m.__file__ for m in (*mods, _hexes, _tables, _random, _llvm)]
    try:
        digest = hashlib.sha256(b"".join(open(f, "rb").read() for f in files)).hexdigest()
    except OSError:
        return
    for mod in mods:
        fns = [
            v
            for v in vars(mod).values()
            if getattr(v, "_cache", None) is not None
            and hasattr(v._cache, "flush")
            and getattr(v, "py_func", None) is not None
            and v.py_func.__module__ == mod.__name__
        ]
        if not fns:
            continue
        try:
            path = fns[0]._cache.cache_path
            stamp = os.path.join(path, mod.__name__.rsplit(".", 1)[-1] + ".sources.sha256")
            old = open(stamp).read().strip() if os.path.exists(stamp) else ""
            if old == digest:
                continue
            for fn in fns:
                fn._cache.flush()
            os.makedirs(path, exist_ok=True)
            with open(stamp, "w") as fh:
                fh.write(digest)
        except OSError:
            continue


_drop_stale_caches()


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


__all__ = [
    "MoveTables",
    "move_tables",
    "needed_mrs",
    "duel_kernel",
    "logged_game",
    "play_game",
    "kernel_args",
    "default_options",
    "refresh",
    "damage",
    "speed_limits",
    "record_speed",
    "apply_move",
    "breath_hit",
    "cc_begin",
    "allocate_self_damage",
    "arc_area",
    "facing_toward",
]
