"""The Dragon Lords move tables' builders with banking (advanced rules, p.16): :func:`_bank_dp`
adds to the DP state the last action (forward or start, turn, a bank odd in its run, a bank
even in it) and the levels the banks dropped; :func:`_bank_extract` keeps one entry per end
state *and* levels dropped.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from ...._kernels import guard_caches
from . import paths
from .paths import _put_boxes, _seeds, _turned

# last action of the banking DP state
LA_FWD, LA_TURN, LA_BANK_ODD, LA_BANK_EVEN = 0, 1, 2, 3
#: the most levels two banks in sequence can drop in a move (Very High to Very Low)
MAX_DROP = 4


@njit(cache=True)
def _bidx(s, la, ll, hb, f, x, y, g):
    return (((((s * 4 + la) * 5 + ll) * 5 + hb) * 6 + f) * g + x) * g + y


@njit(cache=True, nogil=True)
def _bank_dp(cost, bank, nbud, fwd, carry, each):
    """:func:`_move_dp` with banks: over (points spent, last action ``LA_*``, levels dropped
    (cap ``MAX_DROP``), hexes that may climb or dive (cap 4), facing, hex). A bank (``bank``
    points) moves to the forward-left or forward-right hex keeping the facing and may follow
    anything (it is not a turn: "bank, move forward or turn, and then bank again"); one after
    an odd bank of its run drops a level (with ``each``, the reading ``lords.bank_run = each``:
    every bank after the first of its run does). With ``fwd`` a bank's hex counts towards the hexes
    that may climb or dive (reading ``lords.bank_hex = forward``). From the start states of
    ``carry`` (:func:`_seeds`)."""
    rad = nbud + 1
    g = 2 * rad + 1
    size = (nbud + 1) * 4 * 5 * 5 * 6 * g * g
    val = np.full(size, 127, dtype=np.int8)
    par = np.full(size, -1, dtype=np.int32)
    dqs = (1, 1, 0, -1, -1, 0)
    drs = (0, -1, -1, 0, 1, 1)
    turns = (1, -1, 2, -2, 3)
    sides = (1, 5)
    sd = _seeds(cost, nbud, carry)
    for u in range(sd.shape[0]):
        la0 = 0 if (carry == 0 and u == 0) else 1
        val[_bidx(sd[u, 0], la0, 0, 0, sd[u, 1], rad, rad, g)] = 0
    for s in range(nbud + 1):
        # a turn may cost 0 and lands on LA_TURN at the same s: that layer last
        for la in (0, 2, 3, 1):
            for ll in range(MAX_DROP + 1):
                for hb in range(5):
                    for f in range(6):
                        for x in range(g):
                            for y in range(g):
                                i = _bidx(s, la, ll, hb, f, x, y, g)
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
                                    j = _bidx(s + 1, 0, ll, hb2, f, nx, ny, g)
                                    if nv < val[j]:
                                        val[j] = nv
                                        par[j] = i
                                if la != 1:
                                    for k in turns:
                                        c = cost[abs(k)]
                                        if s + c <= nbud:
                                            j = _bidx(s + c, 1, ll, hb, (f + k) % 6, x, y, g)
                                            if v < val[j]:
                                                val[j] = v
                                                par[j] = i
                                if s + bank <= nbud:
                                    la2 = 3 if la == 2 else 2
                                    ll2 = ll + 1 if (la == 2 or (each and la == 3)) else ll
                                    if ll2 > MAX_DROP:
                                        continue
                                    hb2 = hb + 1 if (fwd and hb < 4) else hb
                                    for sd in sides:
                                        dd = (f + sd) % 6
                                        nx = x + dqs[dd]
                                        ny = y + drs[dd]
                                        a = nx - rad
                                        b = ny - rad
                                        d = (abs(a) + abs(b) + abs(a + b)) // 2
                                        nv = v if v > d else d
                                        j = _bidx(s + bank, la2, ll2, hb2, f, nx, ny, g)
                                        if nv < val[j]:
                                            val[j] = nv
                                            par[j] = i
    return val, par


@njit(cache=True, nogil=True)
def _bank_extract(val, par, nbud, vl_any, carry, free_first, each):
    """:func:`_extract` for :func:`_bank_dp`: one entry per end state and levels dropped
    ``L`` (the most hexes that may climb or dive, then with ``free_first`` one that does not end
    with a turn, then the most compact), with ``ll``, ``lm`` and ``nb`` (:class:`MoveTables`)
    and the turn left in the last hex, and whether the path continues the carried turn."""
    rad = nbud + 1
    g = 2 * rad + 1
    counts = np.zeros(nbud + 2, dtype=np.int64)
    for s in range(nbud + 1):
        for f in range(6):
            for x in range(g):
                for y in range(g):
                    for ll in range(MAX_DROP + 1):
                        found = False
                        for la in range(4):
                            for hb in range(5):
                                if val[_bidx(s, la, ll, hb, f, x, y, g)] != 127:
                                    found = True
                        if found:
                            counts[s + 1] += 1
    off = np.cumsum(counts)
    n = off[-1]
    dq = np.zeros(n, np.int8)
    dr = np.zeros(n, np.int8)
    ff = np.zeros(n, np.int8)
    hh = np.zeros(n, np.int8)
    lls = np.zeros(n, np.int8)
    lms = np.zeros(n, np.int8)
    nbs = np.zeros(n, np.int8)
    rq = np.zeros((n, 6), np.int8)
    rr = np.zeros((n, 6), np.int8)
    box = np.zeros((n, 6, 6), np.int8)
    tl = np.zeros(n, np.int8)
    ct = np.zeros(n, np.int8)
    pq = np.zeros(128, np.int64)
    pr = np.zeros(128, np.int64)
    e = 0
    la_stride = 150 * g * g  # _bidx: la's stride (ll 5 x hb 5 x facing 6 x hex g x g)
    s_stride = 4 * la_stride
    for s in range(nbud + 1):
        for f in range(6):
            for x in range(g):
                for y in range(g):
                    for ll in range(MAX_DROP + 1):
                        bi = -1
                        bh = -1
                        bv = 127
                        bl = 2
                        for hb in range(5):
                            for la in range(4):
                                i = _bidx(s, la, ll, hb, f, x, y, g)
                                v = val[i]
                                if v == 127:
                                    continue
                                lt = 1 if la == 1 else 0
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
                        lls[e] = ll
                        npth = 0
                        nbk = 0
                        run = 0
                        long_run = False
                        i = bi
                        root = bi
                        while i >= 0:
                            root = i
                            yy = i % g
                            xx = (i // g) % g
                            la_i = (i // la_stride) % 4
                            pq[npth] = xx - rad
                            pr[npth] = yy - rad
                            npth += 1
                            if par[i] >= 0 and la_i >= 2:
                                nbk += 1
                                run += 1
                                if run >= 3:
                                    long_run = True
                            else:
                                run = 0
                            i = par[i]
                        nbs[e] = nbk
                        # with lords.bank_run = each every bank after a bank drops, so the
                        # Very Low reading 'any' forbids no bank the drops do not count
                        lms[e] = ll + (1 if (vl_any and long_run and not each) else 0)
                        _put_boxes(e, x - rad, y - rad, pq, pr, npth, rq, rr, box)
                        p = par[bi]
                        tl[e] = _turned(
                            carry,
                            root // s_stride,
                            (root // (g * g)) % 6,
                            1 if (bi // la_stride) % 4 == 1 else 0,
                            f,
                            (p // (g * g)) % 6 if p >= 0 else 0,
                            p >= 0,
                        )
                        ct[e] = 1 if (root // s_stride > 0 or (root // (g * g)) % 6 != 0) else 0
                        e += 1
    return off, dq, dr, ff, hh, rq, rr, box, lls, lms, nbs, tl, ct


guard_caches(sys.modules[__name__], [paths])
