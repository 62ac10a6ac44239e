"""The Dragon Lords move tables' builders without banking (rulebook pp. 8-9, "Movement"; turning
between move phases, p.16): :func:`_move_dp`, a DP over (points spent, last turn, hexes that
may climb or dive, facing, hex) from the free start or a carried turn, and :func:`_extract`,
one entry per end state with its most compact path and that path's boxes for the six facings.
The banking builders (:mod:`.banking`) and the alternative paths (:mod:`.edges`) share the
state's index, seeds and boxes here.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from ...._kernels import guard_caches


@njit(cache=True)
def _sidx(s, lt, hb, f, x, y, g):
    return ((((s * 2 + lt) * 5 + hb) * 6 + f) * g + x) * g + y


@njit(cache=True)
def _seeds(cost, nbud, carry):
    """The start states of a move whose dragon carries ``carry`` (signed 60-degree steps
    turned in its hex at the end of its last move; 0: none) under "Turning Between Move
    Phases" (p.16): ``(points spent, facing change)`` pairs, the first being the start itself
    (after which a turn may follow only when ``carry`` is 0), the others the continued turns
    ("it may only turn in the same direction ... and it must spend the balance of the points
    for the total turn"; never past 180 degrees), each then a turn just made."""
    out = np.zeros((4, 2), np.int64)
    n = 1
    a = abs(carry)
    sg = 1 if carry > 0 else -1
    if carry != 0:
        for k in range(1, 4 - a):
            c = cost[a + k] - cost[a]
            if 0 <= c <= nbud:
                out[n, 0] = c
                out[n, 1] = (sg * k) % 6
                n += 1
    return out[:n]


@njit(cache=True)
def _turned(carry, s_root, f_root, lt_end, f_end, f_before, has_par):
    """The signed 60-degree steps a stored path leaves turned in its last hex (``BK_TURNED``):
    0 when it ends with a forward step or a bank; its last turn, when that followed a step;
    the carry and the continued turn together when the path is only its continued turn (the
    rotation from the start, ``f_root``, in the carry's direction); the carry itself for a
    path of no action."""
    if lt_end == 0:
        return 0
    if has_par:
        d = (f_end - f_before) % 6
        return d if d <= 3 else d - 6
    if s_root == 0 and f_root == 0:
        return carry
    a = abs(carry)
    sg = 1 if carry > 0 else -1
    tot = a + (sg * f_root) % 6
    return 3 if tot >= 3 else sg * tot


@njit(cache=True, nogil=True)
def _move_dp(cost, nbud, carry):
    """Bottleneck-shortest DP over (points spent, last was turn, hexes (cap 4), facing, hex),
    from the start states of ``carry`` (:func:`_seeds`)."""
    rad = nbud + 1
    g = 2 * rad + 1
    size = (nbud + 1) * 2 * 5 * 6 * g * g
    val = np.full(size, 127, dtype=np.int8)
    par = np.full(size, -1, dtype=np.int32)
    dqs = (1, 1, 0, -1, -1, 0)
    drs = (0, -1, -1, 0, 1, 1)
    turns = (1, -1, 2, -2, 3)
    sd = _seeds(cost, nbud, carry)
    for u in range(sd.shape[0]):
        lt0 = 0 if (carry == 0 and u == 0) else 1
        val[_sidx(sd[u, 0], lt0, 0, sd[u, 1], rad, rad, g)] = 0
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
def _put_boxes(e, dq, dr, pq, pr, npth, rq, rr, box):
    """Entry ``e``'s end offset ``(dq, dr)`` rotated for each starting facing, and the
    bounding box of its path's ``npth`` hexes ``(pq, pr)`` (start included) for each: min/max
    row, min/max column on even rows, min/max column on odd rows."""
    for k in range(6):
        a, b = _rot(dq, dr, k)
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


@njit(cache=True, nogil=True)
def _extract(val, par, nbud, carry, free_first):
    """One entry per end state of :func:`_move_dp`: the path of the most hexes that may climb
    or dive (cap 4), then (``free_first``: under "Turning Between Move Phases") one that ends
    with a forward step, then the most compact; with the turn it leaves in its last hex and
    whether it continues the carried turn (:func:`_turned`)."""
    rad = nbud + 1
    g = 2 * rad + 1
    lt_stride = 5 * 6 * g * g
    s_stride = 2 * lt_stride
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
    tl = np.zeros(n, np.int8)
    ct = np.zeros(n, np.int8)
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
                    bl = 2
                    for hb in range(5):
                        for lt in range(2):
                            i = _sidx(s, lt, hb, f, x, y, g)
                            v = val[i]
                            if v == 127:
                                continue
                            if hb > bh or (
                                hb == bh
                                and (
                                    (free_first and lt < bl)
                                    or ((not free_first or lt == bl) and v < bv)
                                )
                            ):
                                bh = hb
                                bv = v
                                bl = lt
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
                    root = bi
                    while i >= 0:
                        yy = i % g
                        xx = (i // g) % g
                        pq[npth] = xx - rad
                        pr[npth] = yy - rad
                        npth += 1
                        root = i
                        i = par[i]
                    _put_boxes(e, x - rad, y - rad, pq, pr, npth, rq, rr, box)
                    p = par[bi]
                    tl[e] = _turned(
                        carry,
                        root // s_stride,
                        (root // (g * g)) % 6,
                        (bi // lt_stride) % 2,
                        f,
                        (p // (g * g)) % 6 if p >= 0 else 0,
                        p >= 0,
                    )
                    ct[e] = 1 if (root // s_stride > 0 or (root // (g * g)) % 6 != 0) else 0
                    e += 1
    return off, dq, dr, ff, hh, rq, rr, box, tl, ct


guard_caches(sys.modules[__name__], [])
