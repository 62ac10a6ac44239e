"""Public Dragon Dice functions: dragon attacks on armies, dragon duels, army-size sweeps,
melee attacks with dragonkin breath.

Each validates names and options, turns the data into plain arrays, runs a kernel of
:mod:`dragonsim.dice.kernel` through :func:`dragonsim.runner.run_blocks` and returns a result
dataclass with ``.summary()``, ``.to_frame()``, ``.to_dict()`` and a manifest.

Modules: :mod:`.options` (the rules in force, :class:`Options`, and the catalog),
:mod:`.armies` (dragons and armies as the kernels' arrays, the unit table), :mod:`.common`
(turns, game counts, checkpoints' identity, records' manifests), then one module per public
function and its result: :mod:`.attacks` (:func:`attack`), :mod:`.duels` (:func:`duel`),
:mod:`.sweeps` (:func:`sweep`), :mod:`.tables` (:func:`dragon_table`), :mod:`.melees`
(:func:`melee`). Exact answers are in :mod:`dragonsim.dice.odds`.

Examples
--------
>>> from dragonsim.dice import attack
>>> r = attack("red-wyrm", "goblin-thug:6,goblin-pelter:4", n=2000, progress=False)
>>> 0.0 <= r.p_dragon_slain.rate <= 1.0
True
"""

from __future__ import annotations

# besides __all__, the names the module api.py had before it was split stay importable:
# D and K, MAX_TURNS, the records' columns, dice_registry
from .. import data as D  # noqa: F401
from .. import kernel as K  # noqa: F401
from .armies import ArmyArrays, build_army, resolve_dragons, units_frame
from .attacks import ATTACK_COLUMNS, AttackResult, attack  # noqa: F401
from .common import MAX_TURNS  # noqa: F401
from .duels import DUEL_COLUMNS, DuelResult, duel, teams_by_colour  # noqa: F401
from .melees import MELEE_COLUMNS, MeleeResult, melee  # noqa: F401
from .options import Options, dice_registry  # noqa: F401
from .sweeps import SweepResult, sweep
from .tables import DragonTable, dragon_table

__all__ = [
    "Options",
    "ArmyArrays",
    "AttackResult",
    "DuelResult",
    "MeleeResult",
    "SweepResult",
    "attack",
    "duel",
    "dragon_table",
    "DragonTable",
    "teams_by_colour",
    "melee",
    "sweep",
    "build_army",
    "resolve_dragons",
    "units_frame",
]
