"""Dragon Lords (Grenadier, 1990s): hex-grid aerial dragon combat, every basic, advanced and
optional rule of the rulebook simulated (campaigns aside).

The package is in layers, each importing only from the layers above it in this list:

* ``game`` -- the game itself: ``sheets`` (components -> play sheet, design points, the
  ready-made dragons), ``tables`` (the rules in force, :mod:`dragonsim.rules.lords`, as plain
  arrays), ``state`` (the layout of every kernel array), ``hexes`` (hex-grid geometry),
  ``movetables`` (every legal move, precomputed), ``mechanics`` (to-hit numbers, engagement,
  moves, damage, close combat) and ``odds`` (exact probabilities);
* ``bots`` -- the named, versioned players: they read the game and decide; the registry of
  released versions is ``bots.registry``;
* ``engine`` -- the game loop and its numba kernels, one module per phase of the turn; it asks
  the bots for every decision and applies the rules;
* ``inputs`` -- a run's dragons, bots and rules checked and turned into the kernel's arguments;
  ``results`` -- what a run reports (``DuelResult``, ``BattleResult``, the records' columns);
  ``api`` -- the public runs (``duel``, ``battle``) on the engine, from the one to the other;
* ``analysis`` -- studies built from many runs: ``paired`` (paired comparisons on common
  random numbers), ``rulesweep`` (a rule's sensitivity), ``study`` (tournaments; the others'
  functions importable from it too), ``designs`` (every legal design, many pairs in one
  run), ``pricing`` (``prices``: a fair price per option), ``buildprice`` (``price``: one
  build's fair cost from a stored fit), ``fieldscore`` (``gauntlet``: builds against the field,
  paired), ``race`` (``best``: the best build at a budget), ``skill``, ``robustness``,
  ``baseline`` and ``equilibrium`` (``equilibrium_duel``: a duel with both sides choosing their
  style, ``duel --policy equilibrium``);
* ``views`` -- one game shown: ``replay`` (a game of a run, exactly, as events, which
  ``eventlog`` decodes and tells), ``script`` (scripted games: moves given, dice forced;
  ``scriptfile`` reads a script) and ``picture``.

Every submodule is an attribute (``dragonsim.lords.pricing`` after a plain
``import dragonsim``, by its short name), and the public functions are here too:
``dragonsim.lords.duel``, ``battle``, ``tournament``, ``sensitivity``, ``compare``, ``sheet``,
``design``, ``roster``, ``play_script``, ``prices``, ``price``, ``gauntlet``, ``best`` and
``equilibrium_duel`` (each imported on first use).
"""

from __future__ import annotations

import importlib

from .analysis import MODULES as ANALYSIS_MODULES
from .views import MODULES as VIEWS_MODULES

#: the submodules, reachable as attributes (``dragonsim.lords.api`` after ``import dragonsim``)
SUBMODULES = {
    **{m: m for m in ("api", "inputs", "results")},
    "bots": "bots",
    "engine": "engine",
    **{
        m: f"game.{m}"
        for m in ("hexes", "mechanics", "movetables", "odds", "sheets", "state", "tables")
    },
    **{m: f"analysis.{m}" for m in ANALYSIS_MODULES},
    **{m: f"views.{m}" for m in VIEWS_MODULES},
    **{layer: layer for layer in ("game", "analysis", "views")},
}
#: the public functions and result types, imported on first use (so the command line's
#: ``--help`` loads no numba)
_LAZY = {
    **{name: "dragonsim.lords.api" for name in ("duel", "battle")},
    **{name: "dragonsim.lords.results" for name in ("DuelResult", "BattleResult", "DUEL_COLUMNS")},
    **{name: "dragonsim.lords.analysis.study" for name in ("tournament", "TournamentResult")},
    "sensitivity": "dragonsim.lords.analysis.rulesweep",
    **{name: "dragonsim.lords.analysis.paired" for name in ("compare", "outcomes", "PairedResult")},
    "play_script": "dragonsim.lords.views.script",
    "load_script": "dragonsim.lords.views.script",
    **{name: "dragonsim.lords.analysis.pricing" for name in ("prices", "PricesResult")},
    **{name: "dragonsim.lords.analysis.race" for name in ("best", "BestResult")},
    **{name: "dragonsim.lords.analysis.buildprice" for name in ("price", "PriceResult")},
    **{name: "dragonsim.lords.analysis.fieldscore" for name in ("gauntlet", "GauntletResult")},
    **{
        name: "dragonsim.lords.analysis.equilibrium"
        for name in ("equilibrium_duel", "EquilibriumResult")
    },
    **{
        name: "dragonsim.lords.game.sheets"
        for name in ("sheet", "design", "roster", "parse_design", "Sheet")
    },
}

__all__ = [*SUBMODULES, *_LAZY]


def __getattr__(name: str):
    if name in SUBMODULES:
        return importlib.import_module(f"dragonsim.lords.{SUBMODULES[name]}")
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'dragonsim.lords' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
