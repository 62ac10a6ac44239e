"""Per-game random streams for numba kernels.

Every game ``i`` of a run draws from its own stream, derived from ``(seed, i, purpose)`` by
the splitmix64 mixing function, so a result is identical for any thread count, chunking or
cluster, a run can be extended (games ``n..2n-1``) without changing games ``0..n-1``, and two
configurations run on the same game indices share their dice (common random numbers).

The generator itself is splitmix64 (Steele, Lea & Flood 2014): a 64-bit counter advanced by
the golden gamma and passed through a strong mixer. Its state is one ``uint64`` held in a
1-element array owned by the caller (one per thread/chunk, reset per game), so kernels never
allocate per game and never share state between threads.

All arithmetic is in ``np.uint64``: numba promotes ``uint64 op int64`` to float64, so every
constant here is typed explicitly.

Examples
--------
>>> import numpy as np
>>> from dragonsim.random import new_state, seed_stream, d6
>>> st = new_state()
>>> seed_stream(st, 1, 0, 0)
>>> 1 <= d6(st) <= 6
True
"""

from __future__ import annotations

import numpy as np
from numba import njit

GOLDEN_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GAME_MUL = np.uint64(0xD1B54A32D192ED03)
_PURPOSE_MUL = np.uint64(0xAEF17502108EF2D9)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_MASK32 = np.uint64(0xFFFFFFFF)
_SIX = np.uint64(6)
#: the inverse of :data:`GOLDEN_GAMMA` mod 2**64 (every draw adds the gamma to the state once)
_GAMMA_INV = np.uint64(pow(int(GOLDEN_GAMMA), -1, 1 << 64))

#: Purposes (sub-streams) a kernel may ask for, so the dice of one purpose do not shift when
#: another purpose rolls more or fewer dice (e.g. a bot's tie-breaks vs the game's dice).
STREAM_GAME = 0
STREAM_POLICY = 1
STREAM_SETUP = 2


@njit(cache=True, inline="always")
def mix64(z):
    """splitmix64's finaliser: a bijective, avalanching mix of one uint64."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True, inline="always")
def run_key(seed):
    """The first step of every stream of a run: depends on ``seed`` only (hoist it out of a
    kernel's per-game loop)."""
    return mix64(np.uint64(seed) + GOLDEN_GAMMA)


@njit(cache=True, inline="always")
def game_key(key, game):
    """The second step, shared by all purposes of game ``game`` (``key = run_key(seed)``)."""
    return mix64(np.uint64(key) ^ (np.uint64(game) * _GAME_MUL))


@njit(cache=True, inline="always")
def purpose_seed(gkey, purpose):
    """The starting state of the stream ``purpose`` of a game (``gkey = game_key(..)``)."""
    return mix64(np.uint64(gkey) ^ (np.uint64(purpose) * _PURPOSE_MUL + GOLDEN_GAMMA))


@njit(cache=True)
def stream_seed(seed, game, purpose):
    """The starting state of the stream for ``(seed, game, purpose)``.

    Parameters
    ----------
    seed, game, purpose : int
        Non-negative integers (< 2**63).

    Returns
    -------
    np.uint64
    """
    return purpose_seed(game_key(run_key(seed), game), purpose)


def new_state():
    """A 1-element uint64 state array (allocate once per thread/chunk, not per game)."""
    return np.zeros(1, dtype=np.uint64)


@njit(cache=True)
def seed_stream(state, seed, game, purpose):
    """Point ``state`` (uint64[1]) at the stream of ``(seed, game, purpose)``."""
    state[0] = stream_seed(seed, game, purpose)


@njit(cache=True, inline="always")
def next_u64(state):
    """Next uint64 of the stream held in ``state`` (uint64[1])."""
    s = state[0] + GOLDEN_GAMMA
    state[0] = s
    return mix64(s)


@njit(cache=True, inline="always")
def steps_between(s0, s1):
    """How many numbers a stream drew to move from state ``s0`` to state ``s1`` (``int64``).

    Each draw adds the golden gamma to the state, so the count is ``(s1 - s0) / gamma`` mod
    2**64. The differences of many streams may be summed first (mod 2**64) and counted once:
    ``steps_between(0, sum of (end - start))`` is the total over those streams.
    """
    return np.int64((np.uint64(s1) - np.uint64(s0)) * _GAMMA_INV)


@njit(cache=True, inline="always")
def below(state, k):
    """Uniform int in ``[0, k)`` for ``1 <= k < 2**32`` (Lemire's multiply-shift).

    The bias is at most ``k / 2**32`` (< 2e-9 for a d6), far below any Monte Carlo error.
    """
    x = next_u64(state) >> _S32
    return np.int64((x * np.uint64(k)) >> _S32)


@njit(cache=True, inline="always")
def below_s(s, k):
    """:func:`below` on a stream whose state is the scalar ``s`` (a kernel keeps it in a
    register): returns ``(new state, value in [0, k))``, the same draw."""
    s = np.uint64(s) + GOLDEN_GAMMA
    return s, np.int64(((mix64(s) >> _S32) * np.uint64(k)) >> _S32)


@njit(cache=True, inline="always")
def d6(state):
    """One six-sided die, 1..6."""
    x = next_u64(state) >> _S32
    return np.int64((x * _SIX) >> _S32) + 1


@njit(cache=True, inline="always")
def roll(state, n):
    """The sum of ``n`` six-sided dice (``n`` d6)."""
    total = 0
    while n >= 2:
        # two dice from the two 32-bit halves of one word
        x = next_u64(state)
        total += np.int64(((x >> _S32) * _SIX) >> _S32) + np.int64(((x & _MASK32) * _SIX) >> _S32)
        total += 2
        n -= 2
    if n == 1:
        total += d6(state)
    return total


@njit(cache=True, inline="always")
def two_d6(state):
    """2d6 from one 64-bit word."""
    x = next_u64(state)
    return np.int64(((x >> _S32) * _SIX) >> _S32) + np.int64(((x & _MASK32) * _SIX) >> _S32) + 2


@njit(cache=True, inline="always")
def uniform(state):
    """A float in [0, 1) with 53 random bits."""
    return np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
