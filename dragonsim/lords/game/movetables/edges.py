"""The Dragon Lords move tables' alternative paths, for the exact board-edge check.

A move is stored with one path, and that path's bounding box decides whether the move stays on
the board. Near an edge another path to the same end state may stay on where the stored one
does not. The board is a rectangle in offset coordinates, so a path stays on it exactly when its
bounding box (lowest and highest row, lowest and highest column) fits: for every end state the
Pareto-minimal boxes of its legal paths (with the hexes each flies, which bounds the altitude
change) say exactly where the end state can be reached from. :func:`_box_dp` finds them, one
starting facing at a time; :func:`_box_items` keeps, per entry, those the stored path does not
already cover.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from ...._kernels import guard_caches
from . import layout, paths
from .layout import ALT_BOX, ALT_F, ALT_H, ALT_WIDTH, Row
from .paths import _rot, _seeds, _sidx


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


@njit(cache=True, nogil=True)
def _box_dp(cost, nbud, f0, carry):
    """For a dragon starting on an even row facing ``f0``: per DP state of :func:`_move_dp`
    (points spent, last was turn, hexes (cap 4), facing, hex; here in absolute facings) the
    Pareto-minimal bounding boxes, in offset rows and columns relative to the start, of the
    legal paths into it. A partial path whose box contains another's into the same state has no
    extension the other lacks a narrower twin of, so the antichains stay exact. From the start
    states of ``carry`` (:func:`_seeds`). Returns
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
    sd = _seeds(cost, nbud, carry)
    for u in range(sd.shape[0]):
        lt0 = 0 if (carry == 0 and u == 0) else 1
        head[_sidx(sd[u, 0], lt0, 0, (f0 + sd[u, 1]) % 6, rad, rad, g)] = u
        bx[u, :] = 0
        nxt[u] = -1
    n = sd.shape[0]
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


@njit(cache=True, nogil=True)
def _box_items(dp, row, nbud, f0, free_only):
    """The alternative paths of one MR's entries (``row``, a :class:`~.layout.Row`) for
    starting facing ``f0`` (even start row), from ``dp``, :func:`_box_dp`'s ``(head, bx,
    nxt)``: per end state the Pareto-minimal (hexes flown, box) pairs of its paths, less those
    the stored path covers (as many hexes, a box inside theirs). With ``free_only`` (turning
    between move phases) only the paths that end with a forward step, and only for the
    entries whose stored path does (``turned`` 0): a path flown then leaves the turn the entry
    says. Returns int32 entries and int8 ``[m, ALT_WIDTH]`` records (``ALT_*``), in entry
    order."""
    head, bx, nxt = dp
    off, dq, dr, ff, hh, box, ll, tl = (
        row.off,
        row.dq,
        row.dr,
        row.f,
        row.h,
        row.box,
        row.ll,
        row.turned,
    )
    rad = nbud + 1
    g = 2 * rad + 1
    # entry by (budget, facing change, end offset) for a dragon facing E
    idx = np.full((nbud + 1) * 6 * g * g, -1, dtype=np.int64)
    for s in range(nbud + 1):
        for e in range(off[s], off[s + 1]):
            # (int64 first: the records are int8, and plain Python, NUMBA_DISABLE_JIT, would
            # keep int8 and wrap where numba widens)
            fe, qe, re_ = np.int64(ff[e]), np.int64(dq[e]), np.int64(dr[e])
            if ll[e] == 0:  # (banking tables: the paths here have no bank, so no drop)
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
                    for lt in range(1 if free_only else 2):
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
                    if free_only and tl[e] != 0:
                        continue
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


def _alternatives(turn_cost_row: np.ndarray, nbud: int, part: Row, carry: int, turning) -> tuple:
    """``(entry, records)`` of one row's alternative paths, all six starting facings, sorted by
    entry and facing (even start rows; an odd row reads the facing opposite, negated: a half
    turn of the board maps odd rows' columns onto even rows')."""
    ents, recs = [], []
    for f0 in range(6):
        dp = _box_dp(turn_cost_row, nbud, f0, carry)
        e, r = _box_items(dp, part, nbud, f0, turning is not None)
        ents.append(e)
        recs.append(r)
    ent = np.concatenate(ents)
    rec = np.concatenate(recs)
    order = np.lexsort((rec[:, ALT_F], ent))
    return ent[order], rec[order]


guard_caches(sys.modules[__name__], [layout, paths])
