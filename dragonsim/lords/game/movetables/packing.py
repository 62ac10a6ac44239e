"""The Dragon Lords move tables' views for the planners: the packed, cache-friendly copy of the
entries in each block's scattered visiting order (``MoveTables.pk``, ``pe``, ``inv``), the runs
of banking entries a planner jumps over (``PK_SKIP``), and the grid that finds an entry by
where it ends (``MoveTables.tg``, ``tg_off``).
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from ...._kernels import guard_caches
from . import layout
from .layout import (
    PK_BOX,
    PK_F,
    PK_F_END,
    PK_H,
    PK_LM,
    PK_RQ,
    PK_RR,
    PK_SKIP,
    PK_WIDTH,
    scatter_step,
)


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
    _fill_packed(pk, pe, f, h, rq, rr, box, lm, _skips(off, lm[pe]))
    return pk, pe.astype(np.int32), inv


@njit(cache=True)
def _fill_packed(pk, pe, f, h, rq, rr, box, lm, skip):
    """Write every planner record: ``pk[F, p]`` (int8 [6, n, PK_WIDTH]) from entry ``pe[p]``
    for facing ``F``, in one pass (numpy's fancy indexing, a field and a facing at a time, took
    seconds and a gigabyte of temporaries under advanced+optional); ``skip``: ``PK_SKIP`` by
    position."""
    for p in range(pe.shape[0]):
        e = pe[p]
        for k in range(6):
            pk[k, p, PK_RQ] = rq[e, k]
            pk[k, p, PK_RR] = rr[e, k]
            for j in range(6):
                pk[k, p, PK_BOX + j] = box[e, k, j]
            pk[k, p, PK_H] = h[e]
            pk[k, p, PK_F] = f[e]
            pk[k, p, PK_F_END] = (k + f[e]) % 6
            pk[k, p, PK_LM] = lm[e]
            pk[k, p, PK_SKIP] = skip[p]


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


guard_caches(sys.modules[__name__], [layout])
