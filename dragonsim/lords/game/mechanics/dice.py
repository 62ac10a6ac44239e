"""Dragon Lords dice: every roll of a game, and the forced dice of a scripted game.

Every Lords roll goes through these three: numba inlines dragonsim.random's generator (an
``inline="always"`` function) into each of them once, and callers make plain calls that LLVM
inlines, instead of numba typing the generator again at each of some forty call sites.
A scripted game (:mod:`dragonsim.lords.views.script`) hands the game loop a stream of more than
one cell, its forced dice (``FD_*``): the two rolls then read the next forced roll instead of
drawing. A seeded stream is one cell, so an ordinary game pays one well-predicted compare a
roll. ``draw_below`` draws only from the setup and policy streams, which a scripted game
does not use for decisions (its placement is its scenario), so it is never forced.
"""

from __future__ import annotations

import sys

import numpy as np

from .... import _kernels
from .... import random as _random
from ...._kernels import game_fn, guard_caches
from ....random import below, d6, roll
from .. import hexes, movetables, state, tables
from ..state import (
    FD_BAD_VALUE,
    FD_CURSOR,
    FD_END,
    FD_ERR_DICE,
    FD_ERR_ROLL,
    FD_ERR_TURN,
    FD_ERR_VALUE,
    FD_ERROR,
    FD_NROLLS,
    FD_OK,
    FD_PER_TURN,
    FD_RAN_OUT,
    FD_ROLLS_AT,
    FD_STARTS,
    FD_TURN,
    FD_TURN_ASKED_AT,
    FD_TURN_START,
    FD_TURNS,
)


@game_fn
def roll_dice(st, n):
    """The sum of ``n`` d6 from stream ``st`` (:func:`dragonsim.random.roll`), or a scripted
    game's next forced roll (:func:`forced_roll`)."""
    if st.shape[0] > 1:
        return forced_roll(st, n)
    return roll(st, n)


@game_fn
def roll_d6(st):
    """One d6 from stream ``st`` (:func:`dragonsim.random.d6`), or a scripted game's next
    forced roll."""
    if st.shape[0] > 1:
        return forced_roll(st, 1)
    return d6(st)


@game_fn
def _cell(st, k):
    return np.int64(st[k])


@game_fn
def forced_roll(st, n):
    """The next forced roll of ``n`` d6 from a scripted game's dice ``st`` (``FD_*`` cells).
    A roll of no dice is 0 and reads nothing. When this turn's rolls are used up, or the
    roll is not a sum ``n`` d6 can show, the first such error is kept in the header and the
    roll reads as ``n`` (every die a 1), so the game can finish and the caller can name the
    turn and roll (:func:`dragonsim.lords.views.script.play_script`)."""
    if n <= 0:
        return np.int64(0)
    k = _cell(st, FD_CURSOR)
    st[FD_CURSOR] = np.uint64(k + 1)
    if k >= _cell(st, FD_END):
        _forced_error(st, FD_RAN_OUT, k, n, 0)
        return np.int64(n)
    at = _cell(st, FD_ROLLS_AT) + k
    v = _cell(st, at)
    st[at + _cell(st, FD_NROLLS)] = np.uint64(n)
    if v < n or v > 6 * n:
        _forced_error(st, FD_BAD_VALUE, k, n, v)
        return np.int64(n)
    return v


@game_fn
def _forced_error(st, code, k, n, v):
    if _cell(st, FD_ERROR) == FD_OK:
        st[FD_ERROR] = np.uint64(code)
        st[FD_ERR_TURN] = st[FD_TURN]
        st[FD_ERR_ROLL] = np.uint64(k)
        st[FD_ERR_DICE] = np.uint64(n)
        st[FD_ERR_VALUE] = np.uint64(v)


@game_fn
def forced_turn(st, turn):
    """A new turn of a scripted game: count the rolls the last turn asked for, and point the
    dice at this turn's rolls (given turn by turn) or keep reading the one list. Nothing for a
    seeded stream."""
    if st.shape[0] <= 1:
        return
    prev = _cell(st, FD_TURN)
    asked = _cell(st, FD_TURN_ASKED_AT)
    if prev > 0:
        st[asked + prev] = np.uint64(_cell(st, FD_CURSOR) - _cell(st, FD_TURN_START))
    st[FD_TURN] = np.uint64(turn)
    nt = _cell(st, FD_TURNS)
    if _cell(st, FD_PER_TURN) == 1:
        t = turn if turn <= nt else nt + 1
        start = _cell(st, FD_STARTS + t)
        end = _cell(st, FD_STARTS + t + 1) if turn <= nt else start
        st[FD_CURSOR] = np.uint64(start)
        st[FD_END] = np.uint64(end)
    else:
        st[FD_END] = st[FD_NROLLS]
    st[FD_TURN_START] = st[FD_CURSOR]


@game_fn
def draw_below(st, k):
    """A uniform integer ``0..k-1`` from stream ``st`` (:func:`dragonsim.random.below`)."""
    return below(st, k)


# the parts it calls (and theirs), and every module the mechanics read
guard_caches(sys.modules[__name__], [hexes, movetables, state, tables, _random, _kernels])
