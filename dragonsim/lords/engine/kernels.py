"""The numba kernels: :func:`duel_kernel` cuts a block of games into chunks, each owning a
row of a 2-D counter array, played by :func:`play_chunks` on a few threads without the GIL and
summed at the end; :func:`logged_game` plays one game serially with its decision log."""

from __future__ import annotations

import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np
from numba import njit

from ..._kernels import chunk_bounds, game_fn, n_chunks
from .. import bots as _bots
from ..bots import FAMILY_SEARCH
from ..bots.search import (
    new_search_work,
)
from ..game.state import (
    D_POLICY,
    N_COUNTERS,
    N_LOG,
    N_REC,
    POLICY_BITS,
)
from .game import play_game
from .inputs import Log, guard, make_inputs, new_work


@game_fn(nogil=True)
def play_chunks(c0, c1, start, n, seed, run, out, rec, w, srch):
    """Play the games of chunks ``c0..c1-1`` (of :func:`~dragonsim._kernels.n_chunks` over
    games ``start..start+n-1``) serially, chunk ``c`` into counter row ``out[c]``, with the
    run's :class:`~.inputs.Inputs` ``run``, in the caller's scratch ``w`` (:func:`new_work`)
    and ``srch`` (the look-ahead's, or None); records into ``rec`` when it has a row per game.
    Releases the GIL: :func:`duel_kernel` runs one call per thread.

    A :func:`~dragonsim._kernels.game_fn` like every function it inlines: with reference
    counting, each array the inlined game hands to a phase was counted in and out, about
    two fifths of a turn."""
    want_rec = rec.shape[0] == n
    nchunks = n_chunks(n)
    for c in range(c0, c1):
        a, b = chunk_bounds(start, n, c, nchunks)
        row = out[c]
        for g in range(a, b):
            rrow = g - start if want_rec else -1
            play_game(
                g,
                seed,
                run,
                w,
                row,
                rec,
                rrow,
                None,
                srch,
            )


_POOLS: dict[int, ThreadPoolExecutor] = {}  # one pool per thread count, kept between calls


_POOLS_LOCK = threading.Lock()


def _pool(threads: int) -> ThreadPoolExecutor:
    """The pool of ``threads`` workers. Pools are kept, never shut down, so callers on several
    Python threads at once (a Dask threaded scheduler) each submit to a live pool."""
    with _POOLS_LOCK:
        if threads not in _POOLS:
            _POOLS[threads] = ThreadPoolExecutor(
                max_workers=threads, thread_name_prefix="dragonsim-lords"
            )
        return _POOLS[threads]


def duel_kernel(start, stop, seed, dragons, scen, opt, tb, mv, plan, rec):
    """Play games ``start..stop-1`` and return their counters.

    The games are cut into ``n_chunks`` chunks, each owning a counter row; the chunks are
    shared out in contiguous runs to ``numba.get_num_threads()`` threads, each running the
    compiled :func:`play_chunks` without the GIL, and the rows are summed. (A ``prange``
    kernel did the same but doubled the cold-start compile: numba's parallel machinery
    compiles and optimises the whole game again.) Each game plays from its own streams, so the
    counters do not depend on the thread count.

    Parameters
    ----------
    start, stop, seed : int
        Game indices and the run's seed (each game has its own streams).
    dragons : int64 [nd, N_DCOLS]
        Sheet rows (body, wings, breath, claws, rider, MR, team, policy id, breadth).
    scen : int64 [nd, 5]
        Scenario rows (used when ``opt[OPT_SETUP] == 1``).
    opt : int64 [N_OPT]
        Rules options, see ``OPT_*``.
    tb : KernelTables
        The rules tables (:func:`dragonsim.lords.game.tables.kernel_tables`).
    mv : MoveTables
    plan : float64 [N_PLAN_ROWS, PLAN_WIDTH]
    rec : int64 [stop - start, N_REC] or [0, N_REC]
        Per-game records, filled when it has a row per game.

    Returns
    -------
    int64 [N_COUNTERS]
    """
    n = int(stop) - int(start)
    nchunks = n_chunks(n)
    out = np.zeros((nchunks, N_COUNTERS), dtype=np.int64)
    run = make_inputs(dragons, scen, opt, tb, mv, plan)
    args = (int(start), n, int(seed), run)
    threads = min(numba.get_num_threads(), nchunks)
    if threads <= 1:
        play_chunks(0, nchunks, *args, out, rec, new_work(), _search_work(dragons))
    else:
        runs = [(nchunks * t // threads, nchunks * (t + 1) // threads) for t in range(threads)]
        pool = _pool(threads)
        jobs = [
            pool.submit(play_chunks, c0, c1, *args, out, rec, new_work(), _search_work(dragons))
            for c0, c1 in runs
        ]
        for j in jobs:
            j.result()
    return out.sum(axis=0)


def _search_work(dragons):
    """The look-ahead's scratch when a dragon of ``dragons`` plays the ``search`` bot, else
    None (then no look-ahead is compiled into the game)."""
    ids = dragons[:, D_POLICY] & ((1 << POLICY_BITS) - 1)
    if any(_bots.FAMILIES[int(p)] == FAMILY_SEARCH for p in ids):
        return new_search_work(new_work())
    return None


def logged_game(game, seed, dragons, scen, opt, tb, mv, plan, max_log, work=None):
    """Play one game (serially) and return ``(counters, log)``; the log has one row per
    decision (``K_*`` kinds) for the legality checker. ``work``: the game's scratch
    (default fresh, :func:`new_work`); a scripted game's carries its forced dice and
    decisions in place of the game and policy streams (:mod:`dragonsim.lords.views.script`)."""
    w = new_work() if work is None else work
    run = make_inputs(dragons, scen, opt, tb, mv, plan)
    return _logged_game(game, seed, run, max_log, w, _search_work(dragons))


@njit(cache=True)
def _logged_game(game, seed, run, max_log, w, srch):
    log = Log(np.zeros((max_log, N_LOG), np.int64), np.zeros(1, np.int64))
    cnt = np.zeros(N_COUNTERS, np.int64)
    rec = np.zeros((0, N_REC), np.int64)
    play_game(
        game,
        seed,
        run,
        w,
        cnt,
        rec,
        -1,
        log,
        srch,
    )
    return cnt, log.rows[: log.n[0]]


guard(sys.modules[__name__])
