"""What a game is played with besides its state: the per-thread scratch (:class:`Work`,
allocated in Python so the compiled game allocates nothing), the run's derived inputs built
once per kernel call (:func:`kernel_inputs`: the range row in force and the planners' geometry)
and the cache guard every engine module ends with (:func:`guard`)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba import njit
from numba.extending import register_jitable

from ... import _kernels, _llvm, defaults
from ... import random as _random
from ..._kernels import guard_caches
from ..bots import tactics as _tactics
from ..bots.plan import geometry_table
from ..game import state
from ..game.state import (
    MAXD,
    NF,
    OPT_RANGE_MOD,
)
from ..game.tables import (
    S_BOARD_DEPTH,
    S_BOARD_WIDTH,
    S_MAX_RANGE,
)


class Inputs(NamedTuple):
    """A run's compiled inputs, built once per kernel call (:func:`make_inputs`) and handed
    down the game as one record: a phase reads the fields it needs, and a new table or option
    reaches every phase without touching a signature."""

    dragons: np.ndarray  # int64 [nd, N_DCOLS]: the sheet rows (D_*), policy ids included
    scen: np.ndarray  # int64 [nd, 5]: scenario rows (SC_*, used when opt[OPT_SETUP] == 1)
    opt: np.ndarray  # int64 [N_OPT]: the rules options and run settings (OPT_*)
    tb: tuple  # KernelTables: the rules tables in force
    range_mod: np.ndarray  # int64: the To-Hit range row in force (zeros with OPT_RANGE_MOD 0)
    mv: tuple  # MoveTables: every legal move
    plan: np.ndarray  # float64 [N_PLAN_ROWS, PLAN_WIDTH]: the planners' odds and weights
    geo: np.ndarray  # int64: the planners' geometry table (bots.plan.geometry_table)


class Log(NamedTuple):
    """A logged game's decision log: ``rows`` (int64 [k, N_LOG], ``L_*`` columns) filled while
    ``n[0] < k``. A plain game passes None in its place and compiles no logging at all."""

    rows: np.ndarray
    n: np.ndarray  # int64 [1]: the rows written


class Work(NamedTuple):
    """Per-chunk scratch a game writes into (allocated once per chunk by the kernels)."""

    gst: np.ndarray  # uint64[1]: the game stream (the rules' dice)
    pst: np.ndarray  # uint64[1]: the policy stream (the bots' choices)
    sst: np.ndarray  # uint64[1]: the setup stream (placement)
    ds: np.ndarray  # int64 [MAXD, NF]: the dragon state rows
    order: np.ndarray  # int64 [MAXD]: this turn's initiative order
    key: np.ndarray  # int64 [2 * MAXD]: the initiative rolls being sorted, then each dragon's
    # initiative modifiers (for a roll-off under the reading lords.initiative_tie = modified)
    scratch: np.ndarray  # int64 [10 * MAXD]: the planners' per-decision records
    lp: np.ndarray  # float64 [LP_CELLS]: the tactics game's matrix and tableau (bots.tactics)


def new_work() -> Work:
    """Fresh :class:`Work` scratch for one caller of :func:`play_chunks` (a thread) or one
    logged game. Allocated here, in Python, so that the compiled game loop allocates nothing
    and can run without reference counting."""
    return Work(
        np.zeros(1, np.uint64),
        np.zeros(1, np.uint64),
        np.zeros(1, np.uint64),
        np.zeros((MAXD, NF), np.int64),
        np.zeros(MAXD, np.int64),
        np.zeros(2 * MAXD, np.int64),
        np.zeros(10 * MAXD, np.int64),
        np.zeros(_tactics.LP_CELLS, np.float64),
    )


def guard(module) -> None:
    """Flush the numba caches of engine ``module`` when any file a game compiles in has
    changed: every game function inlines or calls code across the engine, the bots and the
    game layer, so each engine module depends on all of them (and on the rules registry the
    option slots are read from, ``state.SOURCES``)."""
    lords = Path(__file__).resolve().parent.parent
    files = [str(p) for d in ("engine", "bots", "game") for p in sorted((lords / d).rglob("*.py"))]
    guard_caches(module, [*files, state, _random, _llvm, _kernels, defaults])


@njit(cache=True)
def kernel_inputs(tb, opt):
    """``(range_mod, geo)``, built once per kernel call: the To-Hit range row in force
    (``tb.range_mod``, or zeros when ``opt[OPT_RANGE_MOD]`` is 0: the Example of Play, pp.
    36-37, reads no range modifier) and the planners' geometry table."""
    range_mod = tb.range_mod.copy()
    if opt[OPT_RANGE_MOD] == 0:
        range_mod[:] = 0
    scal = tb.scalars
    geo = geometry_table(
        tb.arc, range_mod, scal[S_MAX_RANGE], scal[S_BOARD_WIDTH], scal[S_BOARD_DEPTH]
    )
    return range_mod, geo


def make_inputs(dragons, scen, opt, tb, mv, plan) -> Inputs:
    """The :class:`Inputs` of a run: the given arrays and tables with the range row in force
    and the planners' geometry (:func:`kernel_inputs`)."""
    range_mod, geo = kernel_inputs(tb, opt)
    return Inputs(dragons, scen, opt, tb, range_mod, mv, plan, geo)


@register_jitable
def rules_inputs(opt, tb) -> Inputs:
    """:class:`Inputs` holding the options and rules tables alone, for a phase that reads
    nothing else (a close combat or an initiative played on its own); callable from Python and
    from compiled code alike."""
    return Inputs(None, None, opt, tb, None, None, None, None)


guard(sys.modules[__name__])
