"""Dragon Lords bots: named, versioned njit policies behind one table.

Every decision a dragon's controller makes in the basic rules goes through one of the
``choose_*`` functions below, dispatched on the policy id:

* ``choose_speed``  -- the speed recorded for the turn (within the legal ``lo..hi``);
* ``choose_move``   -- a move end state (an entry of the precomputed move table + altitude change);
* ``choose_engage`` -- whether (and whom) to engage after moving;
* ``choose_target`` -- the breath target recorded before anyone breathes;
* ``choose_side``   -- a hexside when the line of an attack runs through a corner;
* ``choose_facing`` -- the facing a close-combat winner turns to.

The per-dragon state row that bots read (and the engine writes) is laid out by the ``F_*``
constants here; the engine imports them, so the layout has one home.

Bots never search move sequences: :mod:`dragonsim.lords.engine` precomputes, per
maneuverability rating and movement budget, every end state of a legal move relative to its
start (offset, facing, hexes flown, and the bounding box of one legal path for the board-edge
check). A planner visits those end states in a scattered order (a stride coprime to the table
size from a random start) and scores the first ``plan_samples`` that are legal without an
altitude change, and half as many with one level towards the nearest enemy (the brawler: all
the way to its altitude); when none of those fits, it scans every altitude change in full, so
a dragon flies off the board only when no move stays on it. Scoring one end state is a few
integer operations and lookups in tables built once per kernel call (:func:`geometry_table`,
the packed move records of ``MoveTables``), done for a batch of end states at once in loops
LLVM vectorises (stack arrays, :func:`dragonsim._llvm.stack_empty`).

Policies
--------
``random``  (random-1)
    Uniformly random legal choices: speed uniform on ``lo..hi``, the move uniform over the
    (end state, altitude change) pairs that stay on the board and end in an empty hex, engages
    with probability 1/2, breathes at a uniformly chosen legal target (never declines a shot:
    breath is free in the basic rules), corner sides and a winner's facing uniform.
``hunter`` (hunter-2, the default)
    Scores an end state by the expected breath damage it can deal next breath phase (best
    target: P(hit) from the exact 2d6 odds times the mean damage of its breath weapon) minus
    the expected breath damage the enemies can deal to it from where they stand, with a small
    pull towards the nearest enemy and away from facing a board edge. Engages when the exact
    close-combat odds make the expected tooth-and-claw exchange better than the breath
    exchange it gives up. Besides its sample it scores the end states behind the nearest
    enemy (its three rear hexes, facing it or one hexside off), looked up in ``MoveTables.tg``:
    an exhaustive search ends there most often, and a sample rarely finds them. hunter-1
    (the sample only) gave verdicts up to 17 points away from an exhaustive search at the
    default 16 end states; hunter-2 is within about 2 points at 16.
``brawler`` (brawler-1)
    Closes in: maximises engagement chances (adjacent, facing, same altitude), engages whenever
    it may.
``sniper`` (sniper-1)
    Keeps range 3-5, stays out of the enemies' dark and grey areas, never engages.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._llvm import prefetch, stack_empty
from ..random import below
from .hexes import DQ, DR, arc_area, distance, facing_toward, rotate
from .mechanics import can_engage, is_enemy, move_fits, target_number
from .state import (
    F_ALIVE,
    F_ALT,
    F_BREATH,
    F_CLAW,
    F_DP,
    F_DP0,
    F_ENG,
    F_F,
    F_MOVED,
    F_MR,
    F_Q,
    F_R,
    F_TOHIT,
)

__all__ = ["POLICIES", "policy_id", "policy_version"]

# ---- planning table rows (float64 [N_PLAN_ROWS, PLAN_WIDTH]) ----------------------------------
PLAN_P_HIT = 0  # P(hit) by target number 0..PLAN_WIDTH-1 (exact 2d6 with auto miss/hit)
PLAN_E_DMG = 1  # mean damage by weapon step 0..4
PLAN_CC_WIN = 2  # P(win close combat) by modifier difference + PLAN_CC_ZERO
PLAN_CC_LOSS = 3  # P(lose close combat) by modifier difference + PLAN_CC_ZERO
PLAN_P_HIT1 = 4  # P(hit) of target number k - 1 at k (k = 0: any number below 0, P = 0)
N_PLAN_ROWS = 5
PLAN_WIDTH = 48
PLAN_CC_ZERO = 24
#: end states a planner scores per batch (see choose_move)
PLAN_BATCH = 32

# ---- the policy table ---------------------------------------------------------------------------
P_RANDOM = 0
P_HUNTER = 1
P_BRAWLER = 2
P_SNIPER = 3

#: name -> (id, version). The CLI and the API resolve names only here.
POLICIES = {
    "random": (P_RANDOM, "random-1"),
    "hunter": (P_HUNTER, "hunter-2"),
    "brawler": (P_BRAWLER, "brawler-1"),
    "sniper": (P_SNIPER, "sniper-1"),
}


#: the most end states a planner may score per move (``hunter:N``)
MAX_PLAN_SAMPLES = 1024


def parse_policy(spec: str) -> tuple[str, int | None]:
    """A bot as written by a user: a policy name, optionally with its planning breadth.

    ``"hunter"`` -> ``("hunter", None)`` (the run's ``plan_samples``, default 16);
    ``"hunter:32"`` -> ``("hunter", 32)``: this dragon's planner scores the first 32 end
    states that fit at its own altitude (and 16 with an altitude change) per move, a
    stronger player; ``"hunter:4"`` a weaker one. Only planners (hunter, brawler, sniper)
    take a breadth. UserError on anything else, naming what is allowed.
    """
    from ..errors import UserError, resolve_name

    text = str(spec).strip()
    name, sep, breadth = text.partition(":")
    name = resolve_name(
        name, list(POLICIES), "policy", hint="a planner may carry its breadth, e.g. hunter:32"
    )
    if not sep:
        return name, None
    if POLICIES[name][0] == P_RANDOM:
        raise UserError(
            f"policy {text!r}: random does not plan, so it takes no breadth; "
            f"write random, or a planner such as hunter:32"
        )
    try:
        n = int(breadth.strip())
    except ValueError:
        n = 0
    if not 1 <= n <= MAX_PLAN_SAMPLES or breadth.strip() != str(n):
        raise UserError(
            f"policy {text!r}: the breadth after ':' must be a whole number "
            f"1..{MAX_PLAN_SAMPLES} (end states scored per move), e.g. {name}:32"
        )
    return name, n


def policy_spec(spec: str) -> str:
    """The canonical spelling of a bot (``"Hunter : 32"`` -> ``"hunter:32"``)."""
    name, n = parse_policy(spec)
    return name if n is None else f"{name}:{n}"


def policy_id(name: str) -> int:
    """The kernel id of a bot (case-insensitive, breadth ignored); UserError when unknown."""
    return POLICIES[parse_policy(name)[0]][0]


def policy_version(name: str) -> str:
    """The versioned bot for manifests: ``hunter-2``, or ``hunter-2:32`` with a breadth."""
    base, n = parse_policy(name)
    return POLICIES[base][1] if n is None else f"{POLICIES[base][1]}:{n}"


# ---- shared helpers -----------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _p_hit(plan, tn):
    if tn < 0:
        return 0.0
    if tn >= PLAN_WIDTH:
        tn = PLAN_WIDTH - 1
    return plan[PLAN_P_HIT, tn]


@njit(cache=True, inline="always")
def engage_value(ds, i, j, plan, cc_by_mr, self_dice):
    """Expected damage balance of ``i`` engaging ``j``: P(win) E[i's claws] - P(lose) E[j's
    claws] - P(win) E[self damage] (exact close-combat odds)."""
    diff = cc_by_mr[ds[i, F_MR]] - cc_by_mr[ds[j, F_MR]] + PLAN_CC_ZERO
    if diff < 0:
        diff = 0
    if diff >= PLAN_WIDTH:
        diff = PLAN_WIDTH - 1
    pw = plan[PLAN_CC_WIN, diff]
    pl = plan[PLAN_CC_LOSS, diff]
    return (
        pw * plan[PLAN_E_DMG, ds[i, F_CLAW]]
        - pl * plan[PLAN_E_DMG, ds[j, F_CLAW]]
        - pw * 3.5 * self_dice
    )


@njit(cache=True, inline="always")
def _pass_block(mv_off, mr, speed, dalt, dlo, dhi):
    """``(first entry, count)`` of the move-table block a planner samples for altitude change
    ``dalt`` at ``speed`` (budget ``speed - dalt``); count 0 when ``dalt`` leaves the
    altitude bounds ``dlo..dhi`` or no move has that budget."""
    b = speed - dalt
    if dalt < dlo or dalt > dhi or b < 0 or b >= mv_off.shape[1] - 1:
        return 0, 0
    a = mv_off[mr, b]
    return a, mv_off[mr, b + 1] - a


@njit(cache=True, inline="always")
def _room_ahead(q, r, f, width, depth):
    """Hexes straight ahead that stay on the board (0..4)."""
    dq = (1, 1, 0, -1, -1, 0)[f]
    dr = (0, -1, -1, 0, 1, 1)[f]
    n = 0
    for k in range(1, 5):
        qq = q + k * dq
        rr = r + k * dr
        if rr < 0 or rr >= depth:
            break
        col = qq + (rr - (rr & 1)) // 2
        if col < 0 or col >= width:
            break
        n = k
    return n


#: Layout of the planning geometry table (int64, built once per kernel call by
#: :func:`geometry_table`): a header, then per offset within breath range and facing the
#: packed shot ``(arc modifier + range modifier + SHOT_BIAS) * 4 + area`` (or ``OUT_SHOT``),
#: the hex distance per offset, and the room ahead per board hex and facing.
G_R = 0  # max breath range R (offsets -R..R on both axes)
G_SIDE = 1  # 2R + 1
G_SHOT = 2  # where the packed shots start
G_DIST = 3  # where the distances start
G_ROOM = 4  # where the room-ahead values start
G_WIDTH = 5
G_HEAD = 8
SHOT_BIAS = 1 << 20
#: packed shot of an offset out of the arc (or range): area bits 3 and a modifier so low that
#: any target number built on it reads P(hit) = 0
OUT_SHOT = (SHOT_BIAS // 2) * 4 + 3
#: per facing f (4 bits each), ``3 dq + dr + 4`` of the hex directly ahead ``(dq, dr)``: an
#: enemy at distance 1 and offset ``(dq, dr)`` is ahead of facing f when the codes match
ADJ_CODES = sum((3 * int(DQ[f]) + int(DR[f]) + 4) << (4 * f) for f in range(6))


@njit(cache=True)
def geometry_table(arc, range_mod, max_range, width, depth):
    """The planners' geometry, precomputed: for every offset ``(dq, dr)`` with
    ``|dq|, |dr| <= max_range`` and every facing, the arc area of the offset and the to-hit
    modifiers it brings (arc + range), so scoring an end state is table lookups, not angle
    arithmetic; and the room ahead (:func:`_room_ahead`) of every board hex and facing.
    The values are exactly those :func:`target_number` and :func:`_room_ahead` compute."""
    rr_ = max_range
    side = 2 * rr_ + 1
    nsq = side * side
    shot = G_HEAD
    dist_o = shot + 6 * nsq
    room_o = dist_o + nsq
    g = np.zeros(room_o + 6 * width * depth, np.int64)
    g[G_R] = rr_
    g[G_SIDE] = side
    g[G_SHOT] = shot
    g[G_DIST] = dist_o
    g[G_ROOM] = room_o
    g[G_WIDTH] = width
    for a in range(side):
        for b in range(side):
            dq = a - rr_
            dr = b - rr_
            idx = a * side + b
            d = distance(0, 0, dq, dr)
            g[dist_o + idx] = d
            for f in range(6):
                v = OUT_SHOT
                if 1 <= d <= rr_:
                    area = arc_area(0, 0, f, dq, dr, arc[3], arc[4], arc[5])
                    if area >= 0:
                        v = (arc[area] + range_mod[d] + SHOT_BIAS) * 4 + area
                g[shot + 6 * idx + f] = v
    for r in range(depth):
        for col in range(width):
            q = col - (r - (r & 1)) // 2
            for f in range(6):
                g[room_o + 6 * (r * width + col) + f] = _room_ahead(q, r, f, width, depth)
    return g


# ---- decisions ----------------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def choose_speed(pid, ds, i, lo, hi, pst):
    """The speed dragon ``i`` records this turn, ``lo <= speed <= hi``."""
    if pid == P_RANDOM:
        return lo + below(pst, hi - lo + 1)
    near = 1 << 30
    for j in range(ds.shape[0]):
        if is_enemy(ds, i, j):
            d = distance(ds[i, F_Q], ds[i, F_R], ds[j, F_Q], ds[j, F_R])
            if d < near:
                near = d
    if pid == P_BRAWLER:
        want = near + 2
    elif pid == P_SNIPER:
        want = 8
    else:
        # hunter: the safe speed 9 (no cool-down debt) unless the enemy is far away
        want = 9 if near <= 12 else hi
        if near <= 4:
            want = 7
    if want < lo:
        want = lo
    if want > hi:
        want = hi
    return want


@njit(cache=True, _nrt=False)
def choose_move(
    pid,
    ds,
    i,
    speed,
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
    tb_base,
    alt_mod,
    max_range,
    width,
    depth,
    alt_levels,
    cc_by_mr,
    self_dice,
    samples,
    pst,
    scratch,
    geo,
):
    """Choose a move for dragon ``i`` flying exactly ``speed`` points.

    Returns ``(entry, dalt)``: a move-table entry and the altitude change (climbs cost one
    extra point per level, dives one point less), or ``(-1, 0)`` when no move stays on the
    board and ends in an empty hex (the dragon must then leave the board).

    ``scratch`` is an int64 work array of at least 10 * (number of dragons) (per chunk): one
    record of 8 per enemy, then the other dragons' hexes.
    """
    mr = ds[i, F_MR]
    alt0 = ds[i, F_ALT]
    nb = mv_off.shape[1] - 1
    dlo = 1 - alt0
    dhi = alt_levels - alt0
    if pid == P_RANDOM:
        # uniform over (entry, dalt) pairs: rejection sampling over all pairs, then a scan
        total = 0
        for dalt in range(dlo, dhi + 1):
            b = speed - dalt
            if 0 <= b < nb:
                total += mv_off[mr, b + 1] - mv_off[mr, b]
        if total == 0:
            return -1, 0
        for _ in range(64):
            k = below(pst, total)
            for dalt in range(dlo, dhi + 1):
                b = speed - dalt
                if 0 <= b < nb:
                    c = mv_off[mr, b + 1] - mv_off[mr, b]
                    if k < c:
                        e = mv_off[mr, b] + k
                        if move_fits(
                            ds, i, e, dalt, mv_h, mv_rq, mv_rr, mv_box, width, depth, alt_levels
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
                    if move_fits(
                        ds, i, e, dalt, mv_h, mv_rq, mv_rr, mv_box, width, depth, alt_levels
                    ):
                        n += 1
        if n == 0:
            return -1, 0
        k = below(pst, n)
        for dalt in range(dlo, dhi + 1):
            b = speed - dalt
            if 0 <= b < nb:
                for e in range(mv_off[mr, b], mv_off[mr, b + 1]):
                    if move_fits(
                        ds, i, e, dalt, mv_h, mv_rq, mv_rr, mv_box, width, depth, alt_levels
                    ):
                        if k == 0:
                            return e, dalt
                        k -= 1
        return -1, 0

    # planners: score a scattered sample of end states for up to two altitude changes
    best = -1e300
    be = -1
    bd = 0
    q0 = ds[i, F_Q]
    r0 = ds[i, F_R]
    f0 = ds[i, F_F]
    near = 1 << 30
    talt = alt0
    nq = 0  # the nearest enemy's hex and facing
    nr_ = 0
    nf = 0
    for j in range(ds.shape[0]):
        if is_enemy(ds, i, j):
            d = distance(q0, r0, ds[j, F_Q], ds[j, F_R])
            if d < near:
                near = d
                talt = ds[j, F_ALT]
                nq = ds[j, F_Q]
                nr_ = ds[j, F_R]
                nf = ds[j, F_F]
    full = talt - alt0
    one = 0
    if full > 0:
        one = 1
    elif full < 0:
        one = -1
    # altitude changes considered: none, and one level towards the nearest enemy (a brawler:
    # all the way, to meet it at its altitude); the second gets half the samples
    other = full if pid == P_BRAWLER else one
    pk = mv_pk[f0]
    # The random starts of the two sampled passes, drawn now (in pass order, so the stream is
    # the same) and their packed records prefetched: the blocks of all ratings and speeds
    # outgrow the L2 cache, and the first record of a pass is otherwise a miss that stalls
    # the decision. The setup below runs while the lines arrive.
    # A start of -1 means the pass has nothing to sample and is skipped below.
    start0 = -1
    start1 = -1
    for c_ in range(2):
        if c_ == 1 and other == 0:
            continue
        dalt = 0 if c_ == 0 else other
        a, c = _pass_block(mv_off, mr, speed, dalt, dlo, dhi)
        if c == 0:
            continue
        pos = (below(pst, c) * mv_inv[mr, speed - dalt]) % c
        for ahead in range(0, 16 if c_ == 0 else 8, 4):  # the lines of its first samples
            prefetch(pk, a + pos + ahead)
        prefetch(mv_pe, a + pos)
        if c_ == 0:
            start0 = pos
        else:
            start1 = pos
    # hoisted board bounds (offset rows) and the hexes of the other dragons in play
    par = r0 & 1
    col0 = q0 + (r0 - par) // 2
    rlo = -r0
    rhi = depth - 1 - r0
    clo = -col0
    chi = width - 1 - col0
    pc = 4 + 2 * par  # column bounds of this row parity in a packed record
    ho = 8 * ds.shape[0]  # the other dragons' hexes follow the enemy records
    no = 0
    for j in range(ds.shape[0]):
        if j != i and ds[j, F_ALIVE] == 1:
            scratch[ho + 2 * no] = ds[j, F_Q]
            scratch[ho + 2 * no + 1] = ds[j, F_R]
            no += 1
    # the enemies, once per decision: one record of 8 per enemy in `scratch` (from index 0,
    # so LLVM sees the indices are not negative and drops numba's wraparound code): q, r,
    # facing, the target number of my shot at it before the arc, range and altitude
    # modifiers (less the bias, plus one: PLAN_P_HIT1), altitude, engagement, moved, and
    # breath step << 8 | index
    rng = max_range
    side = geo[G_SIDE]
    cen = geo[G_SHOT] + 6 * (rng * side + rng)  # the packed shots of offset (0, 0)
    ro = geo[G_ROOM]
    gw = geo[G_WIDTH]
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
    my_dmg = plan[PLAN_E_DMG, ds[i, F_BREATH]]
    my_tn = tb_base + ds[i, F_TOHIT] - SHOT_BIAS + 1
    sniper = pid == P_SNIPER
    # End states are scored in batches. A scalar loop collects up to PLAN_BATCH of them that
    # fit; loops without branches then score the whole batch, one enemy at a time (LLVM
    # vectorises them, gathering from the geometry and planning tables; the batch lives on
    # the stack, which is what lets it: see stack_empty); a last scalar loop keeps the first
    # best in visiting order. The same end states, the same arithmetic and the same choice
    # as scoring each end state as it is found, at a fraction of the cost per end state.
    bp = stack_empty(PLAN_BATCH, np.int64)  # packed-record index
    bq = stack_empty(PLAN_BATCH, np.int64)  # end hex
    br = stack_empty(PLAN_BATCH, np.int64)
    bf = stack_empty(PLAN_BATCH, np.int64)  # end facing
    bnr = stack_empty(PLAN_BATCH, np.int64)  # distance to the nearest enemy
    boff = stack_empty(PLAN_BATCH, np.float64)  # best expected breath damage dealt
    bdng = stack_empty(PLAN_BATCH, np.float64)  # expected breath damage received
    beng = stack_empty(PLAN_BATCH, np.float64)  # best close combat available (-1e9: none)
    bsc = stack_empty(PLAN_BATCH, np.float64)  # the policy's score
    # Passes 0 and 1 sample those two altitude changes. Passes 2 and 3 (the hunter) look up,
    # for the same two, the end states behind the nearest enemy: the three hexes at its back,
    # facing it or one hexside off. Those are where an exhaustive search most often ends
    # (behind it, out of its arc, breathing at point-blank range) and where a sample of a
    # block of hundreds rarely lands. When nothing fits (a corner, a crowd), passes 4.. scan
    # every altitude change in full, so a dragon leaves the board only when no legal move
    # exists at all.
    for c_ in range(4 + dhi - dlo + 1):
        # visit the entries in a scattered order (a stride coprime to c from a random start)
        # and score the first `quota` that fit (the same checks as move_fits, hoisted).
        # The packed copy stores each block in that order, so the visit reads memory
        # sequentially (see MoveTables).
        if c_ < 2:
            pos = start0 if c_ == 0 else start1
            if pos < 0:
                continue
            dalt = 0 if c_ == 0 else other
            quota = samples if c_ == 0 else (samples + 1) // 2
        elif c_ < 4:
            if pid != P_HUNTER or near == 1 << 30 or (c_ == 3 and other == 0):
                continue
            pos = 0
            dalt = 0 if c_ == 2 else other
            quota = 1 << 30
        else:
            if be >= 0:
                break
            pos = 0
            dalt = dlo + c_ - 4
            quota = 1 << 30
        a, c = _pass_block(mv_off, mr, speed, dalt, dlo, dhi)
        if c == 0:
            continue
        adal = dalt if dalt >= 0 else -dalt
        alt = alt0 + dalt
        found = 0
        seen = 0
        while seen < c and found < quota:
            # ---- collect the next batch of end states that fit
            lim = min(PLAN_BATCH, quota - found)
            nc = 0
            if c_ == 2 or c_ == 3:
                # the end states behind the nearest enemy, looked up by where they end (in
                # the frame of a dragon facing E: rotated back by my facing)
                b = speed - dalt
                go = mv_tg_off[mr, b]
                seen = c  # one batch
                if go < 0:
                    break
                sb = 2 * b + 1
                # three steps, so the table misses of the nine targets overlap instead of
                # queueing: look every target up, then ask for the rows its legality check
                # reads, then check
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
                        bp[nt] = mv_tg[go + k] if inb else -1
                        bq[nt] = tq
                        br[nt] = tr
                        bf[nt] = fe_
                        nt += 1
                for t_ in range(nt):
                    if bp[t_] >= 0:
                        prefetch(mv_box, bp[t_])
                        prefetch(mv_h, bp[t_])
                        prefetch(mv_rq, bp[t_])
                for t_ in range(nt):
                    e = bp[t_]
                    if e >= 0 and move_fits(
                        ds, i, e, dalt, mv_h, mv_rq, mv_rr, mv_box, width, depth, alt_levels
                    ):
                        bp[nc] = e
                        bq[nc] = bq[t_]
                        br[nc] = br[t_]
                        bf[nc] = bf[t_]
                        nc += 1
            while nc < lim and seen < c:
                p = a + pos
                pos += 1
                if pos == c:
                    pos = 0
                seen += 1
                q = q0 + pk[p, 0]
                r = r0 + pk[p, 1]
                ok = (
                    (pk[p, 8] >= adal)
                    & (pk[p, 2] >= rlo)
                    & (pk[p, 3] <= rhi)
                    & (pk[p, pc] >= clo)
                    & (pk[p, pc + 1] <= chi)
                )
                for o in range(no):
                    ok &= (scratch[ho + 2 * o] != q) | (scratch[ho + 2 * o + 1] != r)
                # written every time, kept (nc advances) only when it fits: no branch
                bp[nc] = p
                bq[nc] = q
                br[nc] = r
                bf[nc] = pk[p, 10]  # the facing at the end (PK_F_END)
                nc += 1 if ok else 0
            if nc == 0:
                break
            # ---- the value of ending there: the best expected breath damage dealt next
            # phase, less the enemies' expected damage from where they stand, the board edge
            # ahead, the distance to the nearest enemy and an available close combat. Shots
            # out of arc read P(hit) = 0 (OUT_SHOT, PLAN_P_HIT1); out of range (or beyond
            # the neck bend) the lookups read offset (0, 0) and their values are dropped.
            for k in range(nc):
                boff[k] = 0.0
                bdng[k] = 0.0
                beng[k] = -1e9
                bnr[k] = 1 << 30
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
                w = 1.0 if moved else 0.6
                e_dmg = plan[PLAN_E_DMG, scratch[e8 + 7] >> 8]
                # close combat right after this move: it has moved, same altitude, not Very
                # Low, and I end facing it from the next hex (checked per end state below)
                ev = -1e9
                if moved == 1 and ealt == alt and alt > 1:
                    ev = engage_value(ds, i, scratch[e8 + 7] & 255, plan, cc_by_mr, self_dice)
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
                    off = max(boff[k], plan[PLAN_P_HIT1, min(max(tn, 0), PLAN_WIDTH - 1)] * my_dmg)
                    tn2 = my_tn + (w_ >> 2) + am
                    dng = bdng[k] + (
                        w * plan[PLAN_P_HIT1, min(max(tn2, 0), PLAN_WIDTH - 1)] * e_dmg
                    )
                    if sniper and (w_ & 3) <= 1:
                        dng += 2.0
                    boff[k] = off if inr else boff[k]
                    bdng[k] = dng if inr else bdng[k]
                    adj = dist == 1 and ((ADJ_CODES >> (4 * f)) & 15) == 3 * dq + dr + 4
                    beng[k] = ev if adj and ev > beng[k] else beng[k]
            for k in range(nc):
                nr = bnr[k]
                if nr == 1 << 30:
                    bsc[k] = 0.0
                    continue
                q = bq[k]
                r = br[k]
                room = geo[ro + 6 * (r * gw + q + ((r - (r & 1)) >> 1)) + bf[k]]
                edge = 0.4 * (4 - room)
                if pid == P_BRAWLER:
                    sc = -1.0 * nr - edge
                    if beng[k] > -1e9:
                        sc += 100.0
                elif sniper:
                    sc = boff[k] - 1.5 * bdng[k] - edge
                    if nr < 3:
                        sc -= 3.0 * (3 - nr)
                    elif nr > 5:
                        sc -= 0.3 * (nr - 5)
                else:  # hunter
                    sc = boff[k] - bdng[k] - edge - 0.05 * nr
                    if beng[k] > -1e9 and beng[k] > sc:
                        sc = beng[k]
                bsc[k] = sc
            # ---- the first best in visiting order
            nb = -1
            for k in range(nc):
                if bsc[k] > best:
                    best = bsc[k]
                    nb = k
            if nb >= 0:
                be = bp[nb] if c_ == 2 or c_ == 3 else mv_pe[bp[nb]]
                bd = dalt
                # the engine applies the chosen entry from the scattered tables next:
                # start loading its rows now (a hint only)
                prefetch(mv_rq, be)
                prefetch(mv_rr, be)
            found += nc
    return be, bd


@njit(cache=True, _nrt=False)
def choose_engage(
    pid, ds, i, plan, tb_base, arc, range_mod, alt_mod, max_range, cc_by_mr, self_dice, pst
):
    """Whom dragon ``i`` engages after its move (-1: nobody). Only one dragon can be directly
    in front, so there is at most one candidate."""
    j = -1
    for k in range(ds.shape[0]):
        if can_engage(ds, i, k):
            j = k
            break
    if j < 0:
        return -1
    if pid == P_RANDOM:
        return j if below(pst, 2) == 1 else -1
    if pid == P_BRAWLER:
        return j
    if pid == P_SNIPER:
        return -1
    ev = engage_value(ds, i, j, plan, cc_by_mr, self_dice)
    # the breath exchange given up: my shot at j minus j's shot at me
    tn = target_number(
        ds,
        i,
        j,
        ds[i, F_Q],
        ds[i, F_R],
        ds[i, F_F],
        ds[i, F_ALT],
        tb_base,
        arc,
        range_mod,
        alt_mod,
        max_range,
    )
    mine = _p_hit(plan, tn) * plan[PLAN_E_DMG, ds[i, F_BREATH]]
    tn2 = target_number(
        ds,
        j,
        i,
        ds[j, F_Q],
        ds[j, F_R],
        ds[j, F_F],
        ds[j, F_ALT],
        tb_base,
        arc,
        range_mod,
        alt_mod,
        max_range,
    )
    theirs = _p_hit(plan, tn2) * plan[PLAN_E_DMG, ds[j, F_BREATH]]
    return j if ev > mine - theirs else -1


@njit(cache=True, _nrt=False)
def choose_target(pid, ds, i, plan, tb_base, arc, range_mod, alt_mod, max_range, pst):
    """The breath target dragon ``i`` records (-1: none). Engaged dragons neither breathe nor
    are breathed at; only targets in arc, in range and within the neck bend are offered."""
    if ds[i, F_ENG] >= 0:
        return -1
    n = 0
    best = -1.0
    bt = -1
    pick = -1
    for j in range(ds.shape[0]):
        if not is_enemy(ds, i, j) or ds[j, F_ENG] >= 0:
            continue
        tn = target_number(
            ds,
            i,
            j,
            ds[i, F_Q],
            ds[i, F_R],
            ds[i, F_F],
            ds[i, F_ALT],
            tb_base,
            arc,
            range_mod,
            alt_mod,
            max_range,
        )
        if tn < 0:
            continue
        n += 1
        if pid == P_RANDOM:
            if below(pst, n) == 0:  # reservoir sampling: uniform over legal targets
                pick = j
        else:
            # expected damage, weighted towards finishing weakened dragons
            weak = 0
            for p in range(5):
                lost = ds[j, F_DP0 + p] - ds[j, F_DP + p]
                if lost > weak:
                    weak = lost
            v = _p_hit(plan, tn) * (1.0 + weak / 60.0)
            if v > best:
                best = v
                bt = j
    if pid == P_RANDOM:
        return pick
    return bt


@njit(cache=True, _nrt=False)
def choose_side(pid, ds, t, side1, side2, alloc, pst):
    """Pick one of two direction-template sides (a line through a corner): the attacker chooses.
    Planners take the side whose hit locations bring the target's parts closest to 0."""
    if pid == P_RANDOM:
        return side1 if below(pst, 2) == 0 else side2
    v1 = 0.0
    v2 = 0.0
    w = (1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0)
    for roll in range(2, 13):
        p1 = alloc[roll, side1]
        p2 = alloc[roll, side2]
        v1 += w[roll - 2] / (1.0 + ds[t, F_DP + p1])
        v2 += w[roll - 2] / (1.0 + ds[t, F_DP + p2])
    return side1 if v1 >= v2 else side2


@njit(cache=True, _nrt=False)
def choose_facing(pid, ds, i, j, pst):
    """The facing a close-combat winner ``i`` turns to ("may then turn to face any hexside")."""
    if pid == P_RANDOM:
        return below(pst, 6)
    return facing_toward(ds[i, F_Q], ds[i, F_R], ds[j, F_Q], ds[j, F_R])


def plan_table(rules_tables) -> np.ndarray:
    """The float64 planning table from the exact odds (:mod:`dragonsim.lords.odds`): P(hit)
    by target number, mean damage by weapon step, P(win)/P(lose) of a close combat by the
    difference of the modifiers."""
    from . import odds
    from .tables import S_AUTO_HIT, S_AUTO_MISS

    s = rules_tables.scalars
    auto_miss = int(s[S_AUTO_MISS])
    auto_hit = int(s[S_AUTO_HIT])
    plan = np.zeros((N_PLAN_ROWS, PLAN_WIDTH), dtype=np.float64)
    for tn in range(PLAN_WIDTH):
        plan[PLAN_P_HIT, tn] = float(odds.p_to_hit(tn, auto_miss=auto_miss, auto_hit=auto_hit))
    # the same shifted by one, so a planner clamps a target number into 0..PLAN_WIDTH-1 with
    # no branch: below 0 (or out of arc) reads P = 0, and beyond the table P(hit) no longer
    # changes (only the automatic hit is left above 12)
    plan[PLAN_P_HIT1, 1:] = plan[PLAN_P_HIT, :-1]
    for step in range(rules_tables.weapon.shape[0]):
        n, plus = (int(x) for x in rules_tables.weapon[step])
        plan[PLAN_E_DMG, step] = float(odds.expected(odds.dice_sum(n, plus)))
    two = odds.two_d6()
    for d in range(PLAN_WIDTH):
        diff = d - PLAN_CC_ZERO
        win = sum(px * py for x, px in two.items() for y, py in two.items() if x + diff > y)
        loss = sum(px * py for x, px in two.items() for y, py in two.items() if x + diff < y)
        plan[PLAN_CC_WIN, d] = float(win)
        plan[PLAN_CC_LOSS, d] = float(loss)
    return plan
