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
(:func:`~dragonsim.lords.game.mechanics.move_fits_exact`): about 5 records of 6 bytes per entry,
0.1-0.3 s per rating to build, exactly the end states of a direct search (tests/test_edges.py).

Banking (advanced rules, p.16; ``bank=`` of :func:`move_tables`): a bank moves to the hex
forward-left or forward-right keeping the facing, for the bank cost (twice the 60-degree turn
cost, at least 1); it is not a turn, and the second (fourth, ...) bank of a run drops one level.
:func:`_bank_dp` adds to the DP state the last action (forward or start, turn, a bank odd in its
run, a bank even in it) and the levels the banks dropped (``L``, capped at 4: Very High to Very
Low), and the entries are the end states *and* ``L`` (``MoveTables.ll``). A move of speed ``s``
from altitude ``a0`` on an entry of budget ``b`` ends at ``a0 + (s - b) - L``; it keeps within
Very Low..Very High (whatever the order of climbs, dives and drops) when ``a0 + max(dalt, 0)``
is at most Very High and ``a0 + min(dalt, 0) - lm`` at least Very Low, ``lm`` (``MoveTables.lm``)
being ``L`` plus one where the reading ``lords.bank_very_low = any`` forbids the stored path's
third bank in a row at Very Low. That is the sufficient condition the bots and the engine use;
for ``L = 0`` it is exactly the condition without banking. Tables without banking are the same
arrays, byte for byte (``ll``, ``lm``, ``nb`` all 0); the banking tables are cached under their
own key.

The builders allocate (plain ``njit``); they run once per rules in force and the result is
cached per turn-cost row; the assembled tables of the last few calls are cached whole, and the
banking and turning tables (seconds to build) are kept on disk too (:func:`cache_dir`).
"""

from __future__ import annotations

import sys
import threading
from typing import NamedTuple

import numpy as np
from numba import njit

from ..._kernels import guard_caches


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
    (:func:`~dragonsim.lords.game.mechanics.move_fits_exact`). Empty (``alt_off`` all 0) unless
    built with ``edges=True``. With banking the alternatives are those of the paths without a
    bank (attached to the entry of ``L = 0``): the exact check is then exact for them and
    conservative for the banking paths.

    Banking (``bank`` nonzero: the bank cost by MR; all 0 without banking): ``ll[e]`` the
    levels the entry's banks drop (two in sequence: one level), ``lm[e]`` the levels below the
    start its path needs (``ll``, plus one under the reading that no bank may follow a bank at
    Very Low when the stored path banks three times in a row), ``nb[e]`` the banks on its
    stored path; ``bk[e, BK_*]`` the three together (what the kernels read). ``tg`` holds the
    entries of ``L = 0`` only.

    Turning between move phases (p.16; built with ``turning``): the rows come in six groups,
    one per turn a dragon may carry from its last move (``CARRIES``), row ``group * MR_ROWS +
    mr`` (:func:`~dragonsim.lords.game.mechanics.move_row`); a carrying row's moves begin with a
    step, a bank, or more of the carried turn the same way for the balance of the whole turn's
    cost, and ``bk[e, BK_TURNED]`` is the turn each entry's stored path leaves in its last hex
    (``bk[e, BK_CONT]``: whether it continued the carried one). Of the paths to an end state
    the stored one ends with a step or a bank when one does.
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
    ll: np.ndarray
    lm: np.ndarray
    nb: np.ndarray
    bk: np.ndarray
    bank: np.ndarray


#: Packed planner record fields (``MoveTables.pk``).
PK_RQ, PK_RR, PK_BOX, PK_H, PK_F, PK_F_END = 0, 1, 2, 8, 9, 10
#: how many alternative paths (``MoveTables.alt``) the entry has for this facing from an even
#: and from an odd start row (capped at 127; 0 without ``edges``): an exact check reads the
#: alternatives only when there are some, with no extra memory access
PK_ALT_EVEN, PK_ALT_ODD = 11, 12
#: the entry's ``MoveTables.lm`` (0 without banking): the planners take entries of 0 only
PK_LM = 13
#: how many positions from this one, in the block's visiting order (cyclic), hold entries of
#: ``lm`` > 0 before the next of 0 (capped at 127; 0 without banking): the planners jump over
#: them instead of reading each (the same entries visited, in the same order)
PK_SKIP = 14
PK_WIDTH = 16
#: columns of ``MoveTables.bk`` (int8 [n, 5]): levels dropped, levels needed, banks; the
#: signed 60-degree steps the stored path leaves turned in its last hex (0: it ends with a
#: forward step or a bank; 3: a full 180) and whether it continues the carried turn (turning
#: between move phases, p.16: both 0 without it)
BK_LL, BK_LM, BK_NB, BK_TURNED, BK_CONT = 0, 1, 2, 3, 4


def scatter_step(c: int) -> int:
    """The stride of a planner's scattered visit of a block of ``c`` entries (coprime to c)."""
    return 101 if c % 101 != 0 else 103


def _packed(
    off: np.ndarray,
    f: np.ndarray,
    h: np.ndarray,
    rq: np.ndarray,
    rr: np.ndarray,
    box: np.ndarray,
    lm: np.ndarray,
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
    pk[:, :, PK_LM] = lm[pe][None, :]
    if lm.any():
        pk[:, :, PK_SKIP] = _skips(off, lm[pe])[None, :]
    return pk, pe.astype(np.int32), inv


@njit(cache=True)
def _skips(off, lmv):
    """Per position of each block (``lmv``: the entries' ``lm`` in visiting order), the run of
    positions of ``lm`` > 0 starting there, cyclic within the block, capped at 127."""
    out = np.zeros(lmv.shape[0], np.int8)
    for m in range(off.shape[0]):
        for b in range(off.shape[1] - 1):
            a, z = off[m, b], off[m, b + 1]
            c = z - a
            if c <= 0:
                continue
            run = 0
            for k in range(2 * c - 1, -1, -1):  # twice round: the runs that wrap
                pos = k % c
                run = 0 if lmv[a + pos] == 0 else min(run + 1, 127)
                if k < c:
                    out[a + pos] = run
    return out


MAX_BUDGET = 21  # speed 15 (+2 for Quicken) plus four free dives


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


# ---- banking (advanced rules, p.16) ----------------------------------------------------------
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
def _box_items(head, bx, nxt, nbud, f0, off, dq, dr, ff, hh, box, ll, tl, free_only):
    """The alternative paths of one MR's entries for starting facing ``f0`` (even start row):
    per end state the Pareto-minimal (hexes flown, box) pairs of its paths, less those the
    stored path covers (as many hexes, a box inside theirs). With ``free_only`` (turning
    between move phases) only the paths that end with a forward step, and only for the
    entries whose stored path does (``tl`` 0): a path flown then leaves the turn the entry
    says. Returns int32 entries and int8 ``[m, ALT_WIDTH]`` records (``ALT_*``), in entry
    order."""
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


def _alternatives(turn_cost_row: np.ndarray, nbud: int, part: tuple, carry: int, turning) -> tuple:
    """``(entry, records)`` of one row's alternative paths, all six starting facings, sorted by
    entry and facing (even start rows; an odd row reads the facing opposite, negated: a half
    turn of the board maps odd rows' columns onto even rows')."""
    off, dq, dr, ff, hh, _rq, _rr, box, ll = part[:9]
    tl = part[11]
    ents, recs = [], []
    for f0 in range(6):
        head, bx, nxt = _box_dp(turn_cost_row, nbud, f0, carry)
        e, r = _box_items(
            head, bx, nxt, nbud, f0, off, dq, dr, ff, hh, box, ll, tl, turning is not None
        )
        ents.append(e)
        recs.append(r)
    ent = np.concatenate(ents)
    rec = np.concatenate(recs)
    order = np.lexsort((rec[:, ALT_F], ent))
    return ent[order], rec[order]


_MOVE_PARTS: dict[bytes, tuple] = {}
_ALT_PARTS: dict[bytes, tuple] = {}
#: the rows' tables and alternative paths kept in memory, each cache at most this many bytes
#: (the least recently built go first; under advanced+optional one reading's rows are about
#: 0.43 GB, and a study varying the readings would otherwise keep every variant's)
_PARTS_BYTES = 1_500_000_000


def _keep(cache: dict, key: bytes, value: tuple) -> tuple:
    """Put ``value`` in ``cache`` and drop the oldest entries past ``_PARTS_BYTES`` (never the
    new one); returns ``value``. The rows are built on several threads: each keeps its own
    result, so an entry another thread drops is never read back."""
    with _KEEP_LOCK:
        cache[key] = value
        while len(cache) > 1 and sum(a.nbytes for v in cache.values() for a in v) > _PARTS_BYTES:
            old = next(iter(cache))
            if old == key:
                break
            del cache[old]
    return value


_KEEP_LOCK = threading.Lock()


def bank_costs(turn_cost: np.ndarray, factor: int = 2, minimum: int = 1) -> np.ndarray:
    """The bank cost by MR: "points equal to twice its 60 deg turn cost, with a minimum of 1
    point spent" (p.16; rules lords.bank_cost_factor, lords.bank_cost_minimum).

    >>> from dragonsim.lords.game.tables import kernel_tables
    >>> bank_costs(kernel_tables().turn_cost).tolist()
    [1, 1, 1, 2, 2, 2, 4, 4, 4]
    """
    tc = np.asarray(turn_cost, dtype=np.int64)
    return np.maximum(int(minimum), int(factor) * tc[:, 1])


class Banking(NamedTuple):
    """Banking as the move tables build it: the cost by MR and the two readings."""

    cost: np.ndarray  # int64 [n_mr]
    very_low_any: bool = False  # lords.bank_very_low = any
    hex_forward: bool = False  # lords.bank_hex = forward
    each: bool = False  # lords.bank_run = each: every bank after a bank drops a level


class Turning(NamedTuple):
    """Turning between move phases (p.16) as the move tables build it: the reading of a move
    that ends with a 180-degree turn (lords.turn_between_180)."""

    reset_180: bool = False  # "reset": after a full 180 the next move turns afresh


#: the carried turn of each row group of the tables under turning between move phases (signed
#: 60-degree steps turned in the hex at the end of the last move; 3: a full 180 degrees)
CARRIES = (0, 1, 2, -1, -2, 3)
#: the row group of a carried turn ``t``: ``CARRY_GROUP[t + 3]``; a dragon's row is
#: ``group * MR_ROWS + mr``
MR_ROWS = 9
CARRY_GROUP = np.array([5, 4, 3, 0, 1, 2, 5], dtype=np.int64)


def move_tables(
    turn_cost: np.ndarray,
    max_budget: int = MAX_BUDGET,
    mrs=None,
    *,
    edges: bool = False,
    bank: Banking | None = None,
    turning: Turning | None = None,
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
    bank : Banking, optional
        Banking in play (advanced rules, p.16; :func:`banking_of` reads it from the rules):
        the tables then hold the banking moves too, one entry per end state and levels
        dropped. None (default): the tables without banking.
    turning : Turning, optional
        Turning between move phases in play (p.16; :func:`turning_of`): the tables then hold
        six row groups (``CARRIES``), row ``group * n_mr + mr`` the moves of a dragon that
        carries that turn, and ``bk[:, BK_TURNED]`` the turn each move leaves. None (default):
        one group, the moves from a free start.
    """
    turn_cost = np.ascontiguousarray(turn_cost, dtype=np.int64)
    nmr = turn_cost.shape[0]
    want = set(range(nmr)) if mrs is None else {int(m) for m in mrs}
    whole = (turn_cost.tobytes(), int(max_budget), tuple(sorted(want)), bool(edges))
    whole += (None,) if bank is None else (np.asarray(bank.cost).tobytes(), *bank[1:])
    whole += (None,) if turning is None else tuple(turning)
    if whole in _TABLES:
        _TABLES[whole] = _TABLES.pop(whole)  # the most recently used last
        return _TABLES[whole]
    # the banking and turning tables take seconds to build (advanced+optional: about 30 s):
    # they are kept on disk too, for the next process
    on_disk = bank is not None or turning is not None
    tables = _disk_load(whole) if on_disk else None
    if tables is None:
        if on_disk and turning is not None and sys.stderr.isatty():
            where = cache_dir()
            kept = f"kept in {where} for the next run" if where else "not kept"
            print(
                f"dragonsim: building the move tables with turning between move phases "
                f"(half a minute on 2 cores, once; {kept})",
                file=sys.stderr,
                flush=True,
            )
        tables = _assemble(turn_cost, max_budget, want, edges, bank, turning)
        if on_disk:
            _disk_save(whole, tables)
    _TABLES[whole] = tables
    while len(_TABLES) > _TABLES_KEPT or (
        len(_TABLES) > 1 and sum(_nbytes(t) for t in _TABLES.values()) > _TABLES_BYTES
    ):
        del _TABLES[next(iter(_TABLES))]  # the least recently used
    return tables


#: the assembled tables of the last few calls (the arrays are shared: nothing writes to them),
#: at most ``_TABLES_KEPT`` of them and ``_TABLES_BYTES`` together (but always the last)
_TABLES: dict[tuple, MoveTables] = {}
_TABLES_KEPT = 8
_TABLES_BYTES = 2_000_000_000


def _nbytes(t: MoveTables) -> int:
    return sum(a.nbytes for a in t)


#: the environment variable naming the folder of the move tables kept on disk (default
#: ``$XDG_CACHE_HOME/dragonsim`` or ``~/.cache/dragonsim``); ``off`` keeps none
CACHE_ENV = "DRAGONSIM_CACHE_DIR"
#: at most this many bytes of move tables are kept on disk (the least recently used go first)
DISK_BYTES = 6_000_000_000


def cache_dir():
    """The folder of the move tables kept on disk, or None when ``DRAGONSIM_CACHE_DIR=off``."""
    import os
    from pathlib import Path

    env = os.environ.get(CACHE_ENV, "")
    if env.lower() == "off":
        return None
    if env:
        return Path(env) / "movetables"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "dragonsim" / "movetables"


def _disk_name(whole: tuple) -> str:
    """The file of one set of tables: a digest of what they are built from (the rules' part
    of them, and this module's source, so that a change of the builders builds afresh)."""
    import hashlib

    h = hashlib.sha256(repr(whole).encode())
    h.update(open(__file__, "rb").read())
    h.update(np.__version__.encode())
    return h.hexdigest()[:32] + ".npz"


def _disk_load(whole: tuple) -> MoveTables | None:
    """The tables kept on disk for ``whole``, or None (none kept, or a file that cannot be read
    whole: it is then built afresh and written again)."""
    d = cache_dir()
    if d is None:
        return None
    path = d / _disk_name(whole)
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = [np.ascontiguousarray(z[name]) for name in MoveTables._fields]
        path.touch()  # recently used
    except (OSError, KeyError, ValueError, EOFError):
        return None
    return MoveTables(*arrays)


def _disk_save(whole: tuple, tables: MoveTables) -> None:
    """Keep ``tables`` on disk (written to a temporary file, then renamed: a reader never sees
    half a file), then drop the least recently used past ``DISK_BYTES``. A folder that cannot
    be written keeps nothing, silently: the tables are only slower to come by."""
    import os
    import tempfile
    import time

    d = cache_dir()
    if d is None:
        return
    try:
        d.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=d, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                np.savez(fh, **tables._asdict())
            os.replace(tmp, d / _disk_name(whole))
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        files = sorted(d.glob("*.npz"), key=lambda p: p.stat().st_mtime, reverse=True)
        total = 0
        for p in files:
            total += p.stat().st_size
            if total > DISK_BYTES:
                p.unlink(missing_ok=True)
        for p in d.glob("*.tmp"):  # left by a process killed while it wrote (an hour ago)
            if p.stat().st_mtime < time.time() - 3600:
                p.unlink(missing_ok=True)
    except OSError:
        return


#: the most threads that build rows of the tables at once (the builders release the GIL; each
#: banking row needs about 250 MB while it builds)
BUILD_THREADS = 4


def _in_threads(fn, items: list) -> list:
    """``[fn(x) for x in items]``, in order, on up to ``BUILD_THREADS`` threads (one per core):
    the rows are independent, so the tables are the same whatever the number of threads."""
    import os
    from concurrent.futures import ThreadPoolExecutor

    workers = min(BUILD_THREADS, os.cpu_count() or 1, len(items))
    if workers <= 1:
        return [fn(x) for x in items]
    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(fn, items))


def _part(turn_cost_row, max_budget: int, bank, mr: int, carry: int, turning) -> tuple:
    """One row's tables (cached): ``(off, dq, dr, f, h, rq, rr, box, ll, lm, nb, turned,
    continues)``."""
    key = _key(turn_cost_row, max_budget, bank, mr, carry, turning)
    p = _MOVE_PARTS.get(key)
    if p is None:
        free = turning is not None
        if bank is None:
            val, par = _move_dp(turn_cost_row, max_budget, carry)
            p = _extract(val, par, max_budget, carry, free)
            z = np.zeros(p[3].shape[0], np.int8)
            p = (*p[:8], z, z, z, *p[8:])
        else:
            val, par = _bank_dp(
                turn_cost_row,
                int(bank.cost[mr]),
                max_budget,
                bool(bank.hex_forward),
                carry,
                bool(bank.each),
            )
            p = _bank_extract(
                val, par, max_budget, bool(bank.very_low_any), carry, free, bool(bank.each)
            )
        del val, par
        if turning is None:
            z = np.zeros(p[3].shape[0], np.int8)  # no turn carries without the rule
            p = (*p[:11], z, z)
        elif turning.reset_180:
            tl = p[11].copy()
            tl[np.abs(tl) == 3] = 0  # "reset": a full 180 carries nothing
            p = (*p[:11], tl, p[12])
        _keep(_MOVE_PARTS, key, p)
    return p


def _assemble(turn_cost, max_budget: int, want: set, edges: bool, bank, turning) -> MoveTables:
    """:func:`move_tables` without the cache of whole tables (the rows are cached)."""
    nmr = turn_cost.shape[0]
    if turning is not None and nmr != MR_ROWS:
        raise ValueError(f"turning between move phases needs {MR_ROWS} ratings, not {nmr}")
    groups = CARRIES if turning is not None else (0,)
    rows = []  # (mr, carry) per table row, None for a rating not wanted
    for carry in groups:
        for mr in range(nmr):
            rows.append((mr, carry) if mr in want else None)
    parts = _in_threads(
        lambda rc: (
            None if rc is None else _part(turn_cost[rc[0]], max_budget, bank, rc[0], rc[1], turning)
        ),
        rows,
    )
    off = np.zeros((len(rows), max_budget + 2), dtype=np.int64)
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
    ll, lm, nb, tl, ct = (np.concatenate([p[k] for p in real]) for k in range(8, 13))
    if bank is None:
        bcost = np.zeros(nmr, np.int64)
    else:
        bcost = np.asarray(bank.cost, dtype=np.int64).copy()
    if edges:

        def alternatives(m: int) -> tuple:
            rc = rows[m]
            key = _key(turn_cost[rc[0]], max_budget, bank, rc[0], rc[1], turning)
            got = _ALT_PARTS.get(key)
            if got is None:
                got = _alternatives(turn_cost[rc[0]], max_budget, parts[m], rc[1], turning)
                _keep(_ALT_PARTS, key, got)
            return got

        real_rows = [m for m, rc in enumerate(rows) if rc is not None]
        ents, recs = [], []
        for m, (e, r) in zip(real_rows, _in_threads(alternatives, real_rows), strict=True):
            ents.append(e.astype(np.int64) + int(off[m, 0]))
            recs.append(r)
        ent = np.concatenate(ents)
        alt = np.ascontiguousarray(np.concatenate(recs))
    else:
        ent = np.zeros(0, dtype=np.int64)
        alt = np.zeros((0, ALT_WIDTH), dtype=np.int8)
    alt_off = np.zeros(n + 1, dtype=np.int32)
    alt_off[1:] = np.cumsum(np.bincount(ent, minlength=n))
    pk, pe, inv = _packed(off, f, h, rq, rr, box, lm)
    if edges:
        per = np.zeros((n, 6), dtype=np.int64)
        np.add.at(per, (ent, alt[:, ALT_F].astype(np.int64)), 1)
        per = np.minimum(per, 127)[pe]
        for k in range(6):
            pk[k, :, PK_ALT_EVEN] = per[:, k]
            pk[k, :, PK_ALT_ODD] = per[:, (k + 3) % 6]
    tg = _target_grid(off, _dq, _dr, f, ll)
    bk = np.ascontiguousarray(np.stack([ll, lm, nb, tl, ct], axis=1).astype(np.int8))
    return MoveTables(off, *cat, pk, pe, inv, *tg, alt_off, alt, ll, lm, nb, bk, bcost)


def _key(
    row: np.ndarray, max_budget: int, bank: Banking | None, mr: int, carry: int = 0, turning=None
) -> bytes:
    """The cache key of one row's tables: its turn costs and budget (without banking: the key
    of the tables before banking), then the bank cost and the readings, then the carried turn
    and the reading of turning between move phases."""
    key = row.tobytes() + bytes([max_budget])
    if bank is not None:
        key += b"bank" + bytes([int(bank.cost[mr]), bank.very_low_any, bank.hex_forward])
        if bank.each:
            key += b"each"
    if turning is not None:
        key += b"turn" + bytes([carry + 3, turning.reset_180])
    return key


def banking_of(rules) -> Banking | None:
    """The :class:`Banking` of ``rules`` (a RuleSet), None when lords.advanced.banking is off."""
    if not rules.get("lords.advanced.banking"):
        return None
    from .tables import kernel_tables

    cost = bank_costs(
        kernel_tables(rules).turn_cost,
        rules.get("lords.bank_cost_factor"),
        rules.get("lords.bank_cost_minimum"),
    )
    return Banking(
        cost,
        rules.get("lords.bank_very_low") == "any",
        rules.get("lords.bank_hex") == "forward",
        rules.get("lords.bank_run") == "each",
    )


def turning_of(rules) -> Turning | None:
    """The :class:`Turning` of ``rules`` (a RuleSet), None when lords.advanced.turn_between is
    off."""
    if not rules.get("lords.advanced.turn_between"):
        return None
    return Turning(rules.get("lords.turn_between_180") == "reset")


def _target_grid(
    off: np.ndarray, dq: np.ndarray, dr: np.ndarray, f: np.ndarray, ll: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``(tg, tg_off)`` of :class:`MoveTables`: each block's entries by end offset and facing
    change (a move ends at most ``b`` hexes away on a budget of ``b`` points); with banking
    the entries that drop no level (``ll`` 0) only."""
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
            keep = ll[a:z] == 0
            idx = (tg_off[m, b] + ((q + b) * (2 * b + 1) + r + b) * 6 + f[a:z])[keep]
            if np.unique(idx).shape[0] != idx.shape[0]:
                raise ValueError("two entries of a move block end in the same state")
            tg[idx] = np.arange(a, z, dtype=np.int32)[keep]
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
    "PK_LM",
    "BK_LL",
    "BK_LM",
    "BK_NB",
    "BK_TURNED",
    "BK_CONT",
    "Turning",
    "turning_of",
    "CARRIES",
    "CARRY_GROUP",
    "MR_ROWS",
    "PK_SKIP",
    "PK_WIDTH",
    "Banking",
    "bank_costs",
    "banking_of",
    "ALT_F",
    "ALT_H",
    "ALT_BOX",
    "ALT_WIDTH",
]
