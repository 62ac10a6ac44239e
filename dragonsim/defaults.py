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

#: Dragon Dice: the most attacks an exact game (``dice exact --turns``) follows. Every state of
#: the army (units alive and dead, health lost, promotions) is carried with exact fractions
#: whose denominators grow attack by attack, so each attack costs more than the last: 20
#: attacks of a wyrm on 8 units take about two minutes on one core (1,000 of a drake on 5
#: units, about 13). Monte Carlo (``dice attack --turns``) plays up to 1000.
DICE_EXACT_TURNS = 20

#: every kernel: a chunk of games owns one counter row; about this many games a chunk ...
CHUNK_GAMES = 64

#: ... and at most this many chunks (rows) a call, so small and huge calls both stay cheap
MAX_CHUNKS = 1024

__all__ = [
    "TURN_LIMIT",
    "PLAN_SAMPLES",
    "TURNS_HIST_MAX",
    "BASELINE_SEED",
    "DICE_EXACT_TURNS",
    "CHUNK_GAMES",
    "MAX_CHUNKS",
]
