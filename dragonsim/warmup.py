"""Compiling ahead of time: ``python -m dragonsim warmup`` compiles every kernel of the three
games by one tiny run of each public function that plays.

Above the games (it imports their public functions); the first-run line a run prints on a cold
cache is :mod:`dragonsim.firstrun`'s, below them. This module is not imported by any kernel
module (so changing it does not invalidate their caches, see
:func:`dragonsim._kernels.guard_caches`).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from .firstrun import COMPILE_SECONDS, is_cold

__all__ = ["GAMES", "warmup"]


def _lords() -> None:
    from .lords.api import duel

    duel("Reaper", "Skyblazer", n=1, progress=False, threads=None)
    # a game with a look-ahead dragon compiles the game loop once more (the rollouts in it)
    duel("Reaper", "Skyblazer", n=1, policy="search", progress=False, threads=None)
    # the one-game kernel with the event log (replay)
    from .lords.views.replay import replay

    replay("Reaper", "Skyblazer", game=0)


def _dice() -> None:
    from .dice.api import attack, duel, melee

    attack("red-wyrm", "goblin-thug:1", n=1, progress=False)
    duel("red-wyrm", "blue-drake", n=1, progress=False)
    melee("goblin-thug:1", "dwarf-guard", n=1, progress=False)


def _krynn() -> None:
    from .krynn.api import Tile, battle, battlefield, conflict

    battle(alliance="foot=1", army="foot=1", n=1, progress=False)
    battlefield([Tile(alliance="foot=1", army="foot=1")], n=1, progress=False)
    conflict(3, dice=3, n=1, progress=False)
    conflict(3, actions=2, n=1, progress=False)


#: each game's kernels, by a tiny run of every public function that plays
GAMES: dict[str, Callable[[], None]] = {
    "Dragon Lords": _lords,
    "Dragon Dice": _dice,
    "Warriors of Krynn": _krynn,
}


def _dispatchers(game: str) -> list:
    if game == "Dragon Lords":
        from .lords import engine

        return [engine.play_chunks]
    if game == "Dragon Dice":
        from .dice import kernel

        return [kernel._army_kernel, kernel.dvd_kernel, kernel.melee_kernel]
    from .krynn import engine as kernel

    return [kernel.battle_kernel, kernel.field_kernel, kernel.conflict_kernel]


def warmup(games=None, echo: Callable[[str], None] = print) -> dict[str, float]:
    """Compile (or load from the cache) every kernel of ``games`` (default all three) by one
    game of each public function; returns the seconds each game took."""
    out = {}
    for game in games or GAMES:
        cold = is_cold(_dispatchers(game))
        if cold:
            secs = COMPILE_SECONDS.get(game)
            echo(f"{game}: compiling (about {secs} s on 2 cores) ...")
            sys.stdout.flush()
        t = time.perf_counter()
        GAMES[game]()
        out[game] = time.perf_counter() - t
        how = "compiled" if cold else "its kernels were cached: loaded, tables built"
        echo(f"{game}: ready in {out[game]:.1f} s ({how})")
    return out
