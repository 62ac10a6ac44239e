"""dragonsim: Monte Carlo balance analysis of dragon-combat tabletop games.

Public entry points (imported lazily so the command line starts fast):

- Dragon Lords: ``dragonsim.duel``, ``dragonsim.lords`` (sheets, design, odds, hexes)
- Dragon Dice: ``dragonsim.dice``
- Warriors of Krynn: ``dragonsim.krynn``
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

_LAZY = {
    "duel": ("dragonsim.lords.api", "duel"),
    "design": ("dragonsim.lords.game.sheets", "design"),
    "sheet": ("dragonsim.lords.game.sheets", "sheet"),
    "UserError": ("dragonsim.errors", "UserError"),
}

__all__ = ["__version__", *_LAZY]


def __getattr__(name: str):
    if name in _LAZY:
        mod, attr = _LAZY[name]
        return getattr(importlib.import_module(mod), attr)
    if name in ("lords", "dice", "krynn", "stats", "random", "runner", "rules", "report"):
        return importlib.import_module(f"dragonsim.{name}")
    raise AttributeError(f"module 'dragonsim' has no attribute {name!r}")
