"""Warriors of Krynn: battle lines, skirmishes and all-out battles, tile control, conflicts.

Public functions (see :mod:`dragonsim.krynn.api`): :func:`battle`, :func:`battlefield`,
:func:`conflict`, :func:`best_conflict_plan`, :func:`sweep`; the rules are data in
:mod:`dragonsim.rules.krynn` (:func:`dragonsim.rules.krynn_rules`), seen by the kernels through
:class:`~dragonsim.krynn.data.KrynnRules` (:func:`~dragonsim.krynn.data.assumed` lists every
value with its provenance); exact answers in :mod:`dragonsim.krynn.odds`.
"""

from __future__ import annotations

import importlib

_LAZY = {
    "battle": "dragonsim.krynn.api",
    "battlefield": "dragonsim.krynn.api",
    "conflict": "dragonsim.krynn.api",
    "best_conflict_plan": "dragonsim.krynn.api",
    "sweep": "dragonsim.krynn.api",
    "Tile": "dragonsim.krynn.api",
    "KrynnRules": "dragonsim.krynn.data",
    "default_rules": "dragonsim.krynn.data",
    "load_rules": "dragonsim.krynn.data",
    "assumed": "dragonsim.krynn.data",
}

__all__ = list(_LAZY)


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'dragonsim.krynn' has no attribute {name!r}")
