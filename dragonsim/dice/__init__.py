"""Dragon Dice: dragons against armies, dragons against dragons, dragonkin.

Rules: ``shared/seeds/001_908fc901c9fc9d5f.txt`` (the 1996 dragon and dragonkin rules); die
faces: ``shared/RULES-GAPS.md``. Modules: ``data`` (dice, units, armies, rule values with
provenance; :func:`~dragonsim.dice.data.assumed` lists the assumed ones), ``kernel`` (numba
kernels), ``odds`` (exact answers), ``api`` (:func:`attack`, :func:`duel`, :func:`sweep`,
:func:`melee`),
``cli`` (``python -m dragonsim dice ...``).
"""

from .api import (
    AttackResult,
    DragonTable,
    DuelResult,
    MeleeResult,
    Options,
    SweepResult,
    attack,
    dragon_table,
    duel,
    melee,
    sweep,
    units_frame,
)
from .data import assumed, make_dragon, make_unit

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
