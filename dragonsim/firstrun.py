"""The first run: knowing when numba will compile, and saying so.

Every kernel is compiled with ``cache=True``: the first call on a machine compiles it (tens of
seconds for a game's kernels) and writes the machine code beside its module; later processes
load it in a moment. :func:`compile_note` is the line a run prints before it compiles on a cold
cache (:func:`dragonsim.runner.run_blocks` asks for it); :mod:`dragonsim.warmup` compiles every
game's kernels ahead of time.

Shared machinery below every game: it imports no game (it only looks at the numba dispatchers
it is handed), and no kernel module imports it.
"""

from __future__ import annotations

import sys

__all__ = ["COMPILE_SECONDS", "is_cold", "compile_note", "announce"]

#: about how long each game's kernels take to compile on a cold cache on 2 cores (the first
#: duel, Krynn battle and Dice attack of a fresh checkout; Lords: 85.5 s by
#: ``benchmarks/bench_duel.py --cold-only``; a first Dice attack took 22 s and a first replay,
#: whose kernel logs every event, 161 s on a fresh clone)
COMPILE_SECONDS = {
    "Dragon Lords": 85,
    "Dragon Lords replay": 160,
    "Warriors of Krynn": 30,
    "Dragon Dice": 22,
}

#: the kernels this process has announced a compile of (each is said once)
_ANNOUNCED: set[str] = set()


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


def announce(dispatchers, game: str | None) -> None:
    """Print the first-run line on stderr before the kernels of ``game`` compile, once per
    process whatever number of runs follow (a tournament's pairs, a precision run's looks)."""
    key = game or "simulation"
    if key in _ANNOUNCED:
        return
    note = compile_note(dispatchers, game)
    if note:
        _ANNOUNCED.add(key)
        sys.stderr.write(note + "\n")
        sys.stderr.flush()
