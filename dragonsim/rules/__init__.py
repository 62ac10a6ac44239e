"""Rules as data with provenance, and user overrides, the same way for the three games.

Each game keeps its rules in a registry of :class:`~dragonsim.rules.core.Rule` values
(``dragonsim/rules/<game>.py``, ``RULES``, keys ``<game>.<name>``); :func:`game_rules` (or
:func:`lords_rules`, :func:`dice_rules`, :func:`krynn_rules`) gives the
:class:`~dragonsim.rules.core.RuleSet` in force: the defaults, then a rules file, then keyword
overrides. One rules file serves every game: a ``[lords]``, ``[dice]`` and ``[krynn]`` table
each, and a command reads its own game's table.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import UserError
from .core import PROVENANCES, Rule, RuleSet, load_overrides_file, rows_of

#: the games, in the order ``rules`` lists them
GAMES = ("lords", "dice", "krynn")

__all__ = [
    "GAMES",
    "PROVENANCES",
    "Rule",
    "RuleSet",
    "registry",
    "game_rules",
    "lords_rules",
    "dice_rules",
    "krynn_rules",
    "load_overrides_file",
    "rows_of",
]


def registry(game: str) -> dict[str, Rule]:
    """The rules of ``game`` (``lords``, ``dice`` or ``krynn``): key -> :class:`Rule`."""
    if game not in GAMES:
        raise UserError(f"unknown game {game!r}; allowed: {', '.join(GAMES)}")
    return importlib.import_module(f"{__name__}.{game}").RULES


def game_rules(
    game: str,
    overrides: Mapping[str, Any] | None = None,
    *,
    file: str | Path | None = None,
) -> RuleSet:
    """The rules of ``game`` in force: defaults, then the file's ``[game]`` table, then
    ``overrides`` (keys may omit the ``game.`` prefix).

    >>> game_rules("lords", {"altitude_mod": [0, 1, 1, 2, 2]}).get("lords.altitude_mod")
    [0, 1, 1, 2, 2]
    """
    reg = registry(game)
    prefix = f"{game}."
    merged: dict[str, Any] = {}
    if file is not None:
        every = load_overrides_file(file)
        # the file is checked whole: a mistake in another game's table is found by the first
        # command that reads the file, not only by that game's commands
        for other in GAMES:
            theirs = {k: v for k, v in every.items() if k.startswith(f"{other}.")}
            if other != game and theirs:
                RuleSet(registry(other), theirs)
        merged.update({k: v for k, v in every.items() if k.startswith(prefix)})
    if overrides is not None and not isinstance(overrides, Mapping):
        raise UserError(
            f"{game} rule overrides must be a mapping of rule names to values, "
            f"got {type(overrides).__name__}"
        )
    for k, v in (overrides or {}).items():
        k = str(k)
        merged[k if k.startswith(prefix) else prefix + k] = v
    return RuleSet(reg, merged)


def lords_rules(
    overrides: Mapping[str, Any] | None = None, *, file: str | Path | None = None
) -> RuleSet:
    """The Dragon Lords rules in force (:func:`game_rules` for ``lords``)."""
    return game_rules("lords", overrides, file=file)


def dice_rules(
    overrides: Mapping[str, Any] | None = None, *, file: str | Path | None = None
) -> RuleSet:
    """The Dragon Dice rules in force (:func:`game_rules` for ``dice``)."""
    return game_rules("dice", overrides, file=file)


def krynn_rules(
    overrides: Mapping[str, Any] | None = None, *, file: str | Path | None = None
) -> RuleSet:
    """The Warriors of Krynn rules in force (:func:`game_rules` for ``krynn``)."""
    return game_rules("krynn", overrides, file=file)
