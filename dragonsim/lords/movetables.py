"""Dragon Lords movement, precomputed: every legal move's end state, per maneuverability rating
and movement budget (rulebook pp. 8-9, "Movement").

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

One stored path is not enough near the board edges: another path to the same end state may
stay on the board where the stored one leaves it. With ``edges=True`` the tables also keep,
per entry and starting facing, the Pareto-minimal bounding boxes of all its legal paths
(:func:`_box_dp`, a DP over the same states that keeps an antichain of boxes per state), so
that "some legal path stays on the board" is a few comparisons more
(:func:`~dragonsim.lords.mechanics.move_fits_exact`): about 5 records of 6 bytes per entry,
0.1-0.3 s per rating to build, exactly the end states of a direct search (tests/test_edges.py).

The builders allocate (plain ``njit``); they run once per rules in force and the result is
cached per turn-cost row.
"""

from __future__ import annotations

import sys
from typing import NamedTuple

import numpy as np
from numba import njit

from .._kernels import guard_caches


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
    planner reads for facing ``F`` into 16 bytes (rq, rr, the six box values, h, f, the
    facing at the end, and how many alternative paths it has from an even and an odd row)
    and ``pe[p]`` is the entry at position ``p``.

    ``tg`` finds an entry by where it ends: block ``(mr, b)`` owns ``tg[tg_off[mr, b]:]``, a
    grid over the end offsets ``|dq|, |dr| <= b`` of a dragon facing E and the facing change
    ``f``, entry ``tg[tg_off[mr, b] + ((dq + b) * (2 b + 1) + dr + b) * 6 + f]`` or -1
    (``tg_off`` -1 for an empty block). The hunter looks up the end states behind its enemy
    there (:func:`~dragonsim.lords.bots.planner.plan_move`).

    ``alt[alt_off[e]:alt_off[e + 1]]`` are entry ``e``'s alternative paths (int8 records of
    ``ALT_WIDTH``, sorted by facing ``ALT_F``): per starting facing, the Pareto-minimal pairs
    (hexes flown ``ALT_H``, capped at 4; bounding box ``ALT_BOX..ALT_BOX+3``: min/max row,
    min/max column offset, for a start on an even row) over every legal path to the end state,
    less those the stored path covers. A start on an odd row reads the records of the opposite
    facing with the box negated (a half turn of the board maps one parity onto the other).
    Some legal path of the entry stays on the board iff the stored box or one of these fits
    (:func:`~dragonsim.lords.mechanics.move_fits_exact`). Empty (``alt_off`` all 0) unless
    built with ``edges=True``.
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
    alt_off: np.ndarray
    alt: np.ndarray


#: Packed planner record fields (``MoveTables.pk``).
PK_RQ, PK_RR, PK_BOX, PK_H, PK_F, PK_F_END = 0, 1, 2, 8, 9, 10
#: how many alternative paths (``MoveTables.alt``) the entry has for this facing from an even
#: and from an odd start row (capped at 127; 0 without ``edges``): an exact check reads the
#: alternatives only when there are some, with no extra memory access
PK_ALT_EVEN, PK_ALT_ODD = 11, 12
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


# ---- alternative paths, for the exact board-edge check ------------------------------------------
# A move is stored with one path, and that path's bounding box decides whether the move stays on
# the board. Near an edge another path to the same end state may stay on where the stored one
# does not. The board is a rectangle in offset coordinates, so a path stays on it exactly when its
# bounding box (lowest and highest row, lowest and highest column) fits: for every end state the
# Pareto-minimal boxes of its legal paths (with the hexes each flies, which bounds the altitude
# change) say exactly where the end state can be reached from. :func:`_box_dp` finds them, one
# starting facing at a time; :func:`_box_items` keeps, per entry, those the stored path does not
# already cover.

#: fields of an alternative-path record (``MoveTables.alt``, int8 [m, ALT_WIDTH])
ALT_F, ALT_H, ALT_BOX = 0, 1, 2
ALT_WIDTH = 6


@njit(cache=True)
def _box_insert(head, j, b0, b1, b2, b3, bx, nxt, n, free):
    """Add box ``(row lo, row hi, col lo, col hi)`` to state ``j``'s antichain of boxes unless a
    box there is inside it; drop the boxes it is inside of. Returns the (maybe grown) pool."""
    prev = -1
    k = head[j]
    while k >= 0:
        nk = nxt[k]
        if bx[k, 0] >= b0 and bx[k, 1] <= b1 and bx[k, 2] >= b2 and bx[k, 3] <= b3:
            return bx, nxt, n, free  # a path into j that is no wider anywhere
        if b0 >= bx[k, 0] and b1 <= bx[k, 1] and b2 >= bx[k, 2] and b3 <= bx[k, 3]:
            if prev < 0:
                head[j] = nk
            else:
                nxt[prev] = nk
            nxt[k] = free
            free = k
        else:
            prev = k
        k = nk
    if free >= 0:
        r = free
        free = nxt[free]
    else:
        if n == bx.shape[0]:
            bx2 = np.empty((2 * n, 4), np.int8)
            bx2[:n] = bx
            nxt2 = np.empty(2 * n, np.int32)
            nxt2[:n] = nxt
            bx = bx2
            nxt = nxt2
        r = n
        n += 1
    bx[r, 0] = b0
    bx[r, 1] = b1
    bx[r, 2] = b2
    bx[r, 3] = b3
    nxt[r] = head[j]
    head[j] = r
    return bx, nxt, n, free


@njit(cache=True)
def _box_dp(cost, nbud, f0):
    """For a dragon starting on an even row facing ``f0``: per DP state of :func:`_move_dp`
    (points spent, last was turn, hexes (cap 4), facing, hex; here in absolute facings) the
    Pareto-minimal bounding boxes, in offset rows and columns relative to the start, of the
    legal paths into it. A partial path whose box contains another's into the same state has no
    extension the other lacks a narrower twin of, so the antichains stay exact. Returns
    ``(head, bx, nxt)``: state ``i``'s boxes are ``bx[k]`` for ``k = head[i], nxt[k], ...``."""
    rad = nbud + 1
    g = 2 * rad + 1
    size = (nbud + 1) * 2 * 5 * 6 * g * g
    head = np.full(size, -1, dtype=np.int32)
    bx = np.empty((1 << 16, 4), np.int8)
    nxt = np.empty(1 << 16, np.int32)
    dqs = (1, 1, 0, -1, -1, 0)
    drs = (0, -1, -1, 0, 1, 1)
    turns = (1, -1, 2, -2, 3)
    head[_sidx(0, 0, 0, f0, rad, rad, g)] = 0
    bx[0, :] = 0
    nxt[0] = -1
    n = 1
    free = -1
    for s in range(nbud + 1):
        for lt in range(2):
            for hb in range(5):
                for f in range(6):
                    for x in range(g):
                        for y in range(g):
                            i = _sidx(s, lt, hb, f, x, y, g)
                            if head[i] < 0:
                                continue
                            if s + 1 <= nbud:
                                nx = x + dqs[f]
                                ny = y + drs[f]
                                row = ny - rad
                                col = nx - rad + row // 2
                                hb2 = hb + 1 if hb < 4 else 4
                                j = _sidx(s + 1, 0, hb2, f, nx, ny, g)
                                k = head[i]
                                while k >= 0:
                                    bx, nxt, n, free = _box_insert(
                                        head,
                                        j,
                                        min(bx[k, 0], row),
                                        max(bx[k, 1], row),
                                        min(bx[k, 2], col),
                                        max(bx[k, 3], col),
                                        bx,
                                        nxt,
                                        n,
                                        free,
                                    )
                                    k = nxt[k]
                            if lt == 0:
                                for t in turns:
                                    c = cost[abs(t)]
                                    if s + c <= nbud:
                                        j = _sidx(s + c, 1, hb, (f + t) % 6, x, y, g)
                                        k = head[i]
                                        while k >= 0:
                                            bx, nxt, n, free = _box_insert(
                                                head,
                                                j,
                                                bx[k, 0],
                                                bx[k, 1],
                                                bx[k, 2],
                                                bx[k, 3],
                                                bx,
                                                nxt,
                                                n,
                                                free,
                                            )
                                            k = nxt[k]
    return head, bx, nxt


@njit(cache=True)
def _box_items(head, bx, nxt, nbud, f0, off, dq, dr, ff, hh, box):
    """The alternative paths of one MR's entries for starting facing ``f0`` (even start row):
    per end state the Pareto-minimal (hexes flown, box) pairs of its paths, less those the
    stored path covers (as many hexes, a box inside theirs). Returns int32 entries and int8
    ``[m, ALT_WIDTH]`` records (``ALT_*``), in entry order."""
    rad = nbud + 1
    g = 2 * rad + 1
    # entry by (budget, facing change, end offset) for a dragon facing E
    idx = np.full((nbud + 1) * 6 * g * g, -1, dtype=np.int64)
    for s in range(nbud + 1):
        for e in range(off[s], off[s + 1]):
            # (int64 first: the records are int8, and plain Python, NUMBA_DISABLE_JIT, would
            # keep int8 and wrap where numba widens)
            fe, qe, re_ = np.int64(ff[e]), np.int64(dq[e]), np.int64(dr[e])
            idx[((s * 6 + fe) * g + qe + rad) * g + re_ + rad] = e
    cap = 1 << 12
    ent = np.empty(cap, np.int32)
    rec = np.empty((cap, ALT_WIDTH), np.int8)
    m = 0
    cand = np.empty((4096, 5), np.int64)  # hexes (cap 4), box
    back = (6 - f0) % 6
    for s in range(nbud + 1):
        for f in range(6):
            for x in range(g):
                for y in range(g):
                    nc = 0
                    for lt in range(2):
                        for hb in range(5):
                            k = head[_sidx(s, lt, hb, f, x, y, g)]
                            while k >= 0:
                                if nc == cand.shape[0]:
                                    raise ValueError("more than 4096 paths' boxes in a state")
                                cand[nc, 0] = hb
                                for u in range(4):
                                    cand[nc, 1 + u] = bx[k, u]
                                nc += 1
                                k = nxt[k]
                    if nc == 0:
                        continue
                    a, b = _rot(x - rad, y - rad, back)
                    e = idx[((s * 6 + (f - f0) % 6) * g + a + rad) * g + b + rad]
                    if e < 0:
                        raise ValueError("a path ends where the move table has no entry")
                    for c in range(nc):
                        # kept unless another pair (or the stored path) serves every move it does
                        keep = not (
                            hh[e] >= cand[c, 0]
                            and box[e, f0, 0] >= cand[c, 1]
                            and box[e, f0, 1] <= cand[c, 2]
                            and box[e, f0, 2] >= cand[c, 3]
                            and box[e, f0, 3] <= cand[c, 4]
                        )
                        for d in range(nc):
                            if not keep:
                                break
                            if d == c:
                                continue
                            inside = (
                                cand[d, 0] >= cand[c, 0]
                                and cand[d, 1] >= cand[c, 1]
                                and cand[d, 2] <= cand[c, 2]
                                and cand[d, 3] >= cand[c, 3]
                                and cand[d, 4] <= cand[c, 4]
                            )
                            same = (
                                cand[d, 0] == cand[c, 0]
                                and cand[d, 1] == cand[c, 1]
                                and cand[d, 2] == cand[c, 2]
                                and cand[d, 3] == cand[c, 3]
                                and cand[d, 4] == cand[c, 4]
                            )
                            if inside and (not same or d < c):
                                keep = False
                        if not keep:
                            continue
                        if m == ent.shape[0]:
                            ent2 = np.empty(2 * m, np.int32)
                            ent2[:m] = ent
                            rec2 = np.empty((2 * m, ALT_WIDTH), np.int8)
                            rec2[:m] = rec
                            ent = ent2
                            rec = rec2
                        ent[m] = e
                        rec[m, ALT_F] = f0
                        rec[m, ALT_H] = cand[c, 0]
                        for u in range(4):
                            rec[m, ALT_BOX + u] = cand[c, 1 + u]
                        m += 1
    return ent[:m].copy(), rec[:m].copy()


def _alternatives(turn_cost_row: np.ndarray, nbud: int, part: tuple) -> tuple:
    """``(entry, records)`` of one MR's alternative paths, all six starting facings, sorted by
    entry and facing (even start rows; an odd row reads the facing opposite, negated: a half
    turn of the board maps odd rows' columns onto even rows')."""
    off, dq, dr, ff, hh, _rq, _rr, box = part
    ents, recs = [], []
    for f0 in range(6):
        head, bx, nxt = _box_dp(turn_cost_row, nbud, f0)
        e, r = _box_items(head, bx, nxt, nbud, f0, off, dq, dr, ff, hh, box)
        ents.append(e)
        recs.append(r)
    ent = np.concatenate(ents)
    rec = np.concatenate(recs)
    order = np.lexsort((rec[:, ALT_F], ent))
    return ent[order], rec[order]


_MOVE_PARTS: dict[bytes, tuple] = {}
_ALT_PARTS: dict[bytes, tuple] = {}


def move_tables(
    turn_cost: np.ndarray, max_budget: int = MAX_BUDGET, mrs=None, *, edges: bool = False
) -> MoveTables:
    """Precompute the move end states for the maneuverability ratings ``mrs`` (default all).

    Ratings not listed get no entries (a dragon with such a rating would have no move), so
    callers list every rating a dragon can reach: its sheet's and the one serious tail damage
    gives (:func:`needed_mrs`).

    With ``edges`` the tables also hold every entry's alternative paths (``alt_off``, ``alt``)
    for the exact board-edge check of the bots that ask for it (``EDGE_EXACT`` in
    :mod:`dragonsim.lords.bots`); without, every entry has none (the check is then the stored
    path's alone). They cost about 0.2 s per rating to build and 5 records of 6 bytes per
    entry, so they are built only for a game with such a bot.

    Parameters
    ----------
    turn_cost : int64 [n_mr, 4]
        Cost to turn 0, 60, 120, 180 degrees by MR (``KernelTables.turn_cost``).
    max_budget : int
        Largest geometric budget (hexes + turn points) to enumerate.
    mrs : iterable of int, optional
        Which maneuverability indices to enumerate.
    edges : bool
        Also enumerate the alternative paths (exact board-edge check).
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
    n = f.shape[0]
    if edges:
        ents, recs = [], []
        for mr in range(nmr):
            if parts[mr] is None:
                continue
            key = turn_cost[mr].tobytes() + bytes([max_budget])
            if key not in _ALT_PARTS:
                _ALT_PARTS[key] = _alternatives(turn_cost[mr], max_budget, parts[mr])
            e, r = _ALT_PARTS[key]
            ents.append(e.astype(np.int64) + int(off[mr, 0]))
            recs.append(r)
        ent = np.concatenate(ents)
        alt = np.ascontiguousarray(np.concatenate(recs))
    else:
        ent = np.zeros(0, dtype=np.int64)
        alt = np.zeros((0, ALT_WIDTH), dtype=np.int8)
    alt_off = np.zeros(n + 1, dtype=np.int32)
    alt_off[1:] = np.cumsum(np.bincount(ent, minlength=n))
    pk, pe, inv = _packed(off, f, h, rq, rr, box)
    if edges:
        per = np.zeros((n, 6), dtype=np.int64)
        np.add.at(per, (ent, alt[:, ALT_F].astype(np.int64)), 1)
        per = np.minimum(per, 127)[pe]
        for k in range(6):
            pk[k, :, PK_ALT_EVEN] = per[:, k]
            pk[k, :, PK_ALT_ODD] = per[:, (k + 3) % 6]
    return MoveTables(off, *cat, pk, pe, inv, *_target_grid(off, _dq, _dr, f), alt_off, alt)


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


guard_caches(sys.modules[__name__], [])

__all__ = [
    "MoveTables",
    "move_tables",
    "needed_mrs",
    "scatter_step",
    "MAX_BUDGET",
    "PK_RQ",
    "PK_RR",
    "PK_BOX",
    "PK_H",
    "PK_F",
    "PK_F_END",
    "PK_ALT_EVEN",
    "PK_ALT_ODD",
    "PK_WIDTH",
    "ALT_F",
    "ALT_H",
    "ALT_BOX",
    "ALT_WIDTH",
]
