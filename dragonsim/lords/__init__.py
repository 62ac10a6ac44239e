"""Dragon Lords (Grenadier, 1990s): hex-grid aerial dragon combat, the basic rules simulated.

Modules, in the order a game's data flows through them:

* ``sheets`` -- components -> play sheet, design points, the roster of ready-made dragons;
* ``tables`` -- the rules in force (:mod:`dragonsim.rules.lords`) -> plain arrays for kernels;
* ``state`` -- the layouts of every kernel array (dragon state rows, options, counters, logs);
* ``hexes`` -- hex-grid geometry; ``movetables`` -- every legal move, precomputed;
* ``mechanics`` -- the rules mechanics (to-hit number, engagement, moves, damage, close combat);
* ``bots`` -- the named, versioned bots (``bots.dispatch`` and one module per bot family);
* ``engine`` -- the game loop, one function per phase, and the numba kernels;
* ``api`` (``duel``, ``battle``, ...), ``study``, ``odds`` (exact probabilities), ``baseline``;
* ``replay`` (one game of a run, exactly, as events), ``script`` (scripted games), ``picture``;
* ``designs`` (every legal design, many pairs in one run), ``pricing`` (``prices``: a fair
  price per option) and ``race`` (``best``: the best build at a budget).

Every submodule is an attribute (``dragonsim.lords.api`` after a plain ``import dragonsim``),
and the public functions are here too: ``dragonsim.lords.duel``, ``battle``, ``tournament``,
``sensitivity``, ``compare``, ``sheet``, ``design``, ``roster``, ``play_script`` (a scripted
game: moves given, dice forced), ``prices`` and ``best`` (each imported on first use).
"""

from __future__ import annotations

import importlib

#: the submodules, reachable as attributes (``dragonsim.lords.api`` after ``import dragonsim``)
SUBMODULES = (
    "api",
    "baseline",
    "bots",
    "designs",
    "engine",
    "hexes",
    "mechanics",
    "movetables",
    "odds",
    "pricing",
    "race",
    "script",
    "sheets",
    "state",
    "study",
    "tables",
)
#: the public functions and result types, imported on first use (so the command line's
#: ``--help`` loads no numba)
_LAZY = {
    **{
        name: "dragonsim.lords.api"
        for name in ("duel", "DuelResult", "battle", "BattleResult", "DUEL_COLUMNS")
    },
    **{
        name: "dragonsim.lords.study"
        for name in (
            "tournament",
            "TournamentResult",
            "sensitivity",
            "compare",
            "outcomes",
            "PairedResult",
        )
    },
    "play_script": "dragonsim.lords.script",
    "load_script": "dragonsim.lords.script",
    **{name: "dragonsim.lords.pricing" for name in ("prices", "PricesResult")},
    **{name: "dragonsim.lords.race" for name in ("best", "BestResult")},
    **{
        name: "dragonsim.lords.sheets"
        for name in ("sheet", "design", "roster", "parse_design", "Sheet")
    },
}

__all__ = [*SUBMODULES, *_LAZY]


def __getattr__(name: str):
    if name in SUBMODULES:
        return importlib.import_module(f"dragonsim.lords.{name}")
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'dragonsim.lords' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
