"""Dragon Dice: dragons against armies, dragons against dragons, dragonkin.

Rules: ``shared/seeds/001_908fc901c9fc9d5f.txt`` (the 1996 dragon and dragonkin rules); die
faces: ``shared/RULES-GAPS.md``. Modules: ``data`` (dice, units, armies, rule values with
provenance; :func:`~dragonsim.dice.data.assumed` lists the assumed ones), ``kernel`` (numba
kernels), ``odds`` (exact answers), ``api`` (:func:`attack`, :func:`duel`, :func:`sweep`,
:func:`melee`),
``cli`` (``python -m dragonsim dice ...``).
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
