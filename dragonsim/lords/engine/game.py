"""One game from the first turn to the last (:func:`play_game`: initiative, speeds, the rest
of the turn, until one side is left or the turn limit) and its counters and record
(:func:`end_game`)."""

from __future__ import annotations

import sys

import numpy as np

from ..._kernels import game_fn
from ...random import (
    STREAM_GAME,
    STREAM_POLICY,
    STREAM_SETUP,
    seed_stream,
)
from ..game.mechanics import (
    forced_turn,
)
from ..game.state import (
    C_DEALT,
    C_DEALT_SQ,
    C_DRAWS,
    C_GAMES,
    C_TURN_HIST,
    C_TURN_LIMIT,
    C_TURNS,
    C_TURNS_SQ,
    C_WIN,
    F_DEALT,
    F_HITS,
    HIST_MAX,
    K_END,
    K_INIT,
    L_A,
    OPT_TURN_LIMIT,
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
)
from .damage import count_absorbed
from .initiative import initiative
from .inputs import guard
from .log import log_row, points_left
from .setup import begin_game, teams_alive
from .speed import record_speeds
from .turn import finish_turn


@game_fn
def end_game(ds, turn, winner, limit_hit, engages, first, cnt, rec, rrow, log):
    """The game is over: add it to the counters (``C_*``) and, when ``rrow >= 0``, write its
    record (``R_*``; ``first``: the dragon that moved first on turn 1, ``R_FIRST``)."""
    nd = ds.shape[0]
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
        r = log_row(log, ds, turn, K_END, winner, limit_hit)
        if r >= 0:
            log.rows[r, L_A] = 0
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


@game_fn(inline="always")
def play_game(
    game,
    seed,
    run,
    w,
    cnt,
    rec,
    rrow,
    log,
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
        Every decision is logged while ``log.n[0] < k`` (tests); with None (a plain duel) the
        logging code is not compiled at all (numba prunes ``if log is not None`` branches).
    srch : SearchWork or None
        The look-ahead's scratch when a dragon plays the ``search`` bot
        (:func:`~dragonsim.lords.bots.search.new_search_work`), else None.
    """
    dragons, opt = run.dragons, run.opt
    nd = dragons.shape[0]
    ds = w.ds[:nd]  # loops over dragons run over the ones in this game only
    # Counts and purposes start as int64, not as literals: numba would compile a callee once
    # for the literal types of its first typing pass and once more for int64.
    seed_stream(w.gst, seed, game, np.int64(STREAM_GAME))
    seed_stream(w.pst, seed, game, np.int64(STREAM_POLICY))
    seed_stream(w.sst, seed, game, np.int64(STREAM_SETUP))
    begin_game(ds, nd, run, w, cnt, log)
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
        na = initiative(ds, nd, run, w, cnt)
        if turn == 1:
            first = w.order[0]
        if log is not None:
            for k in range(na):
                r = log_row(log, ds, turn, K_INIT, w.order[k], -1)
                if r >= 0:
                    log.rows[r, L_A] = k
        record_speeds(ds, na, run, w, cnt, turn, log)
        made, nteams, last_team = finish_turn(ds, nd, na, 0, run, w, cnt, turn, log, srch)
        engages += made
    end_game(ds, turn, winner, limit_hit, engages, first, cnt, rec, rrow, log)


guard(sys.modules[__name__])
