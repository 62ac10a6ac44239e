"""Public Warriors of Krynn functions: validate, build the engine's records, run the kernels,
present.

Modules: :mod:`.tiles` (a tile's starting position), :mod:`.common` (the rules of a run and
the engine's rules record), then one module per public function and its result:
:mod:`.battles` (:func:`battle`), :mod:`.fields` (:func:`battlefield`), :mod:`.conflicts`
(:func:`conflict`), :mod:`.sweeps` (:func:`sweep`). :func:`best_conflict_plan` is exact
(:mod:`dragonsim.krynn.odds`).

>>> from dragonsim.krynn import battle
>>> r = battle(alliance="foot=3,missile=2,mounted=2", army="foot=5,missile=3,mounted=2",
...            n=2000, progress=False)
>>> 0.0 <= r.p_alliance_controls.rate <= 1.0
True
"""

from __future__ import annotations

from .. import engine as K
from ..odds import best_conflict_plan
from .battles import BATTLE_COLUMNS, BattleResult, battle
from .common import BATTLE_TYPES, MAX_HEROES, MAX_TURNS
from .conflicts import CONFLICT_COLUMNS, ConflictResult, conflict
from .fields import FIELD_COLUMNS, MAX_TILES, BattlefieldResult, battlefield
from .sweeps import MAX_SWEEP_VALUES, SWEEPABLE, SweepResult, sweep
from .tiles import MAX_FLANK, MAX_TACTICS, LineSpec, Tile, parse_lines

__all__ = [
    "Tile",
    "parse_lines",
    "battle",
    "BattleResult",
    "battlefield",
    "BattlefieldResult",
    "conflict",
    "ConflictResult",
    "sweep",
    "SweepResult",
    "best_conflict_plan",
    "BATTLE_TYPES",
    "BATTLE_COLUMNS",
    "FIELD_COLUMNS",
    "CONFLICT_COLUMNS",
    "SWEEPABLE",
    "MAX_HEROES",
    "MAX_TURNS",
    "MAX_TILES",
    "MAX_SWEEP_VALUES",
    "MAX_FLANK",
    "MAX_TACTICS",
    "LineSpec",
    "K",
]
