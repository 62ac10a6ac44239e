"""The first run: knowing when numba will compile, saying so, and compiling ahead of time.

Every kernel is compiled with ``cache=True``: the first call on a machine compiles it (tens of
seconds for a game's kernels) and writes the machine code beside its module; later processes
load it in a moment. :func:`compile_note` is the line a run prints before it compiles on a cold
cache; :func:`warmup` (``python -m dragonsim warmup``) compiles every kernel of the three games.

This module is not imported by any kernel module (so changing it does not invalidate their
caches, see :func:`dragonsim._kernels.guard_caches`).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

__all__ = ["COMPILE_SECONDS", "is_cold", "compile_note", "warmup"]

#: about how long each game's kernels take to compile on a cold cache on 2 cores (the first
#: duel, Krynn battle and Dice attack of a fresh checkout)
COMPILE_SECONDS = {"Dragon Lords": 40, "Warriors of Krynn": 30, "Dragon Dice": 10}


def is_cold(dispatchers) -> bool:
    """Whether calling these numba dispatchers will compile: none of them has a compiled
    signature in this process and its on-disk cache index holds no entry (missing, flushed
    by :func:`guard_caches`, or stale for its source file)."""
    if not isinstance(dispatchers, list | tuple):
        dispatchers = [dispatchers]
    for d in dispatchers:
        if not hasattr(d, "signatures"):
            continue  # plain Python
        if d.signatures:
            continue
        try:
            if not d._cache._cache_file._load_index():
                return True
        except Exception:  # noqa: BLE001 - no readable cache: it compiles
            return True
    return False


def compile_note(dispatchers, game: str | None) -> str | None:
    """The first-run line (``compiling the Dragon Lords kernels once ...``), or None when the
    kernels are compiled or cached already."""
    if not is_cold(dispatchers):
        return None
    name = game or "simulation"
    secs = COMPILE_SECONDS.get(name)
    about = f"about {secs} s on 2 cores" if secs else "up to a minute"
    return (
        f"compiling the {name} kernels once (an empty cache: {about}); later runs start in "
        "seconds; `python -m dragonsim warmup` compiles every game's ahead of time"
    )


def _lords() -> None:
    from .lords.api import duel

    duel("Reaper", "Skyblazer", n=1, progress=False, threads=None)
    # a game with a look-ahead dragon compiles the game loop once more (the rollouts in it)
    duel("Reaper", "Skyblazer", n=1, policy="search", progress=False, threads=None)
    # the one-game kernel with the event log (replay)
    from .lords.replay import replay

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
        echo(f"{game}: {'compiled' if cold else 'already compiled, loaded'} in {out[game]:.1f} s")
    return out
