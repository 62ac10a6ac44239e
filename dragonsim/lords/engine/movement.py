"""The movement of one dragon in the air (p.8): it flies a move-table entry
(:func:`fly`; banking and turning between move phases live in the move tables), and, with
moving early (p.15), the dragons later in the order announce before it moves
(:func:`announce_early`). The order of movers is the turn's (:mod:`.turn`)."""

from __future__ import annotations

import sys

import numpy as np

from ..._kernels import game_fn
from ..bots import scripted as _scripted
from ..bots.dispatch import (
    choose_early,
)
from ..game.mechanics import (
    apply_move,
)
from ..game.movetables import BK_CONT, BK_LL, BK_NB, BK_TURNED
from ..game.state import (
    C_BANK_DROPS,
    C_BANKS,
    C_EARLY,
    C_LEFT_BOARD,
    C_TURN_CARRIED,
    C_TURN_CONTINUED,
    F_ALIVE,
    F_ALT,
    F_F,
    F_LEFT,
    F_MOVED,
    F_MR,
    F_POLICY,
    F_Q,
    F_R,
    F_TURNED,
    K_EARLY,
    K_LEAVE,
    K_MOVE,
    L_A,
    MK_LAND,
)
from .inputs import guard
from .log import log_row


@game_fn
def announce_early(ds, na, k, run, w, cnt, turn, log):
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
        if choose_early(ds[j, F_POLICY], ds, j, run.plan, w.pst):
            mask |= np.int64(1) << s
            cnt[C_EARLY] += 1
            if log is not None:
                log_row(log, ds, turn, K_EARLY, j, i)
    return mask


@game_fn
def fly(ds, i, move, mv, w, cnt, turn, log):
    """Dragon ``i`` flies ``move = (e, dalt, speed, kind, q_from, r_from)`` (int64s): move-table
    entry ``e`` with altitude change ``dalt`` (``speed``
    points; logged as a move of ``kind``, ``MK_*``, with ``(q_from, r_from)``, where a
    take-off left the ground, at ``L_A + 8, 9``, and the banks flown and levels they dropped
    at ``L_A + 10, 11``: "for every two banks in sequence, the dragon's altitude drops by one
    level", p.16; the turn carried into the move and the one it leaves at ``L_A + 12, 13``:
    turning between move phases, p.16); ``e < 0``: no move stays on the board, and the dragon
    flies off and is out of the game (returns False)."""
    e, dalt, speed, kind, q_from, r_from = move
    if e < 0:
        if log is not None:
            r = log_row(log, ds, turn, K_LEAVE, i, -1)
            if r >= 0:
                log.rows[r, L_A + 0] = speed
                log.rows[r, L_A + 1] = ds[i, F_MR]
                log.rows[r, L_A + 6] = kind
                log.rows[r, L_A + 8] = q_from
                log.rows[r, L_A + 9] = r_from
                log.rows[r, L_A + 12] = ds[i, F_TURNED]
        ds[i, F_ALIVE] = 0
        ds[i, F_LEFT] = 1
        ds[i, F_MOVED] = 1
        cnt[C_LEFT_BOARD] += 1
        return False
    tl = mv.bk[e, BK_TURNED]  # the turn the move leaves (turning between move phases)
    if w.pst.shape[0] > 1 and kind != MK_LAND:
        tl = _scripted.script_turned(ds, i, tl, w.pst)  # a scripted path's own
    if log is not None:
        r = log_row(log, ds, turn, K_MOVE, i, -1)
        if r >= 0:
            f0 = ds[i, F_F]
            log.rows[r, L_A + 0] = speed
            log.rows[r, L_A + 1] = ds[i, F_MR]
            log.rows[r, L_A + 2] = ds[i, F_Q] + mv.rq[e, f0]
            log.rows[r, L_A + 3] = ds[i, F_R] + mv.rr[e, f0]
            log.rows[r, L_A + 4] = (f0 + mv.f[e]) % 6
            log.rows[r, L_A + 5] = ds[i, F_ALT] + dalt - mv.bk[e, BK_LL]
            log.rows[r, L_A + 6] = kind
            log.rows[r, L_A + 8] = q_from
            log.rows[r, L_A + 9] = r_from
            log.rows[r, L_A + 10] = mv.bk[e, BK_NB]
            log.rows[r, L_A + 11] = mv.bk[e, BK_LL]
            log.rows[r, L_A + 12] = ds[i, F_TURNED]
            log.rows[r, L_A + 13] = tl
    cnt[C_BANKS] += mv.bk[e, BK_NB]
    cnt[C_BANK_DROPS] += mv.bk[e, BK_LL]
    if ds[i, F_TURNED] != 0:
        cnt[C_TURN_CARRIED] += 1
        cnt[C_TURN_CONTINUED] += mv.bk[e, BK_CONT]
    apply_move(ds, i, e, dalt, mv.rq, mv.rr, mv.f, mv.bk)
    ds[i, F_TURNED] = tl
    return True


guard(sys.modules[__name__])
