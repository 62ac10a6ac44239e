"""Dragon Dice: dragons against armies, dragons against dragons, dragonkin.

Rules: the Dragon Dice Dragon Rules (09/13/96), as data in :mod:`dragonsim.rules.dice` (every
value and reading the kernels use, with provenance; ``dragonsim.rules.dice_rules()`` gives the
rules in force, :func:`~dragonsim.dice.data.assumed` lists the assumed ones). Modules: ``data``
(dragon dice, unit dice, armies, with provenance), ``kernel`` (numba kernels), ``odds`` (exact
answers), ``api`` (:func:`attack`, :func:`duel`, :func:`sweep`, :func:`melee`); the command
line is ``python -m dragonsim dice ...`` (:mod:`dragonsim.cli.dice`).
"""

from __future__ import annotations

import importlib

# imported on first use, so `python -m dragonsim --help` does not load numba and scipy
_LAZY = {
    **{
        name: "dragonsim.dice.api"
        for name in (
            "AttackResult",
            "DragonTable",
            "DuelResult",
            "MeleeResult",
            "Options",
            "SweepResult",
            "attack",
            "dragon_table",
            "duel",
            "melee",
            "sweep",
            "units_frame",
        )
    },
    **{name: "dragonsim.dice.data" for name in ("assumed", "make_dragon", "make_unit")},
}


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'dragonsim.dice' has no attribute {name!r}")


__all__ = [
    "AttackResult",
    "DragonTable",
    "DuelResult",
    "MeleeResult",
    "Options",
    "SweepResult",
    "assumed",
    "attack",
    "dragon_table",
    "duel",
    "make_dragon",
    "make_unit",
    "melee",
    "sweep",
    "units_frame",
]
