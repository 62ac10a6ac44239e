"""Defaults that more than one layer needs, in one home (no numba, so ``--help`` stays instant).

The engine, the public functions and the command line all read these; none keeps a copy.
"""

from __future__ import annotations

#: Dragon Lords: turns before a game is called a stalemate (a draw, counted separately)
TURN_LIMIT = 200

#: Dragon Lords: end states a planning bot scores per move and altitude change (``hunter:N``)
PLAN_SAMPLES = 16

#: Dragon Lords: the game-length histogram's last bin (games of this many turns or more)
TURNS_HIST_MAX = 100

#: Dragon Lords: the seed ``baseline write`` plays the stored baseline on (a check replays the
#: matchups on another)
BASELINE_SEED = 20261130

#: every kernel: a chunk of games owns one counter row; about this many games a chunk ...
CHUNK_GAMES = 64

#: ... and at most this many chunks (rows) a call, so small and huge calls both stay cheap
MAX_CHUNKS = 1024

__all__ = [
    "TURN_LIMIT",
    "PLAN_SAMPLES",
    "TURNS_HIST_MAX",
    "BASELINE_SEED",
    "CHUNK_GAMES",
    "MAX_CHUNKS",
]
