"""One Dragon Lords game shown: a game of a run replayed exactly (``replay``) as events, which
``eventlog`` decodes from the game loop's log and tells as text, scripted games with moves
given and dice forced (``scriptfile`` reads and checks a script, ``script`` plays it) and the
board drawn (``picture``).

Each module is an attribute, imported on first use (``dragonsim.lords.views.replay`` after a
plain ``import dragonsim``)."""

from __future__ import annotations

import importlib

MODULES = ("eventlog", "picture", "replay", "script", "scriptfile")


def __getattr__(name: str):
    if name in MODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
