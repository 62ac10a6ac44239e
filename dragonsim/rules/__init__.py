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
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import RulesWarning, UserError, did_you_mean
from .core import (
    PRESET_NAMES,
    PROVENANCES,
    Rule,
    RuleSet,
    check_preset,
    load_overrides_file,
    load_rules_file,
    rows_of,
)

#: the games, in the order ``rules`` lists them
GAMES = ("lords", "dice", "krynn")

__all__ = [
    "GAMES",
    "PRESET_NAMES",
    "PROVENANCES",
    "Rule",
    "RuleSet",
    "registry",
    "game_rules",
    "lords_rules",
    "dice_rules",
    "krynn_rules",
    "as_rules",
    "presets",
    "load_overrides_file",
    "rows_of",
]


def registry(game: str) -> dict[str, Rule]:
    """The rules of ``game`` (``lords``, ``dice`` or ``krynn``): key -> :class:`Rule`."""
    if game not in GAMES:
        raise UserError(f"unknown game {game!r}; allowed: {', '.join(GAMES)}")
    return importlib.import_module(f"{__name__}.{game}").RULES


def presets(game: str) -> dict[str, dict[str, Any]]:
    """The switches each preset turns on for ``game`` (its rules module's ``PRESETS``; a game
    without advanced rules plays every preset as its defaults)."""
    registry(game)
    mod = importlib.import_module(f"{__name__}.{game}")
    table = getattr(mod, "PRESETS", {})
    return {name: dict(table.get(name, {})) for name in PRESET_NAMES}


def game_rules(
    game: str,
    overrides: Mapping[str, Any] | None = None,
    *,
    file: str | Path | None = None,
    preset: str | None = None,
) -> RuleSet:
    """The rules of ``game`` in force: defaults, then the switches of the preset (``basic``
    or ``advanced``, given here or as ``preset = ...`` in the file), then the file's
    ``[game]`` table, then ``overrides`` (keys may omit the ``game.`` prefix). ``file`` may
    also be a preset's name, as ``--rules basic`` is.

    >>> game_rules("lords", {"altitude_mod": [0, 1, 1, 2, 2]}).get("lords.altitude_mod")
    [0, 1, 1, 2, 2]
    >>> game_rules("lords", preset="advanced").get("lords.advanced.lancer")
    True
    """
    reg = registry(game)
    prefix = f"{game}."
    if file is not None and str(file) in PRESET_NAMES:
        file, preset = None, _one_preset(preset, str(file))
    elif isinstance(file, str) and did_you_mean(file, PRESET_NAMES) and not Path(file).exists():
        raise UserError(
            f"rules {str(file)!r} is neither a preset ({', '.join(PRESET_NAMES)}) nor a file"
            f"{did_you_mean(str(file), PRESET_NAMES)}"
        )
    if preset is not None:
        check_preset(preset)
    every: dict[str, Any] = {}
    if file is not None:
        named, every = load_rules_file(file)
        if named is not None:
            preset = _one_preset(preset, named)
    merged: dict[str, Any] = dict(presets(game)[preset]) if preset is not None else {}
    if file is not None:
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
    renamed = getattr(importlib.import_module(f"{__name__}.{game}"), "RENAMED", {})
    for k in [k for k in merged if k in renamed]:
        # a 0/1 switch of earlier versions, now a true/false one under its new name
        v = merged.pop(k)
        if v not in (0, 1) or (renamed[k] in merged and merged[renamed[k]] != bool(v)):
            raise UserError(f"rule {k!r} is now {renamed[k]!r}; give it true or false")
        merged.setdefault(renamed[k], bool(v))
    rs = RuleSet(reg, merged, preset=preset)
    advise = getattr(importlib.import_module(f"{__name__}.{game}"), "rules_warnings", None)
    for message in advise({r.key: rs.get(r.key) for r in rs}) if advise else ():
        warnings.warn(message, RulesWarning, stacklevel=2)
    return rs


def _one_preset(a: str | None, b: str) -> str:
    if a is not None and a != b:
        raise UserError(f"two rules presets given, {a!r} and {b!r}; name one")
    return b


def as_rules(game: str, rules: Any) -> RuleSet:
    """The :class:`RuleSet` ``rules`` stands for: None (the defaults), a RuleSet, a mapping
    of overrides, or a preset's name (``"basic"``, ``"advanced"``), the ``rules=`` argument
    of every public function.

    >>> as_rules("lords", "advanced").preset
    'advanced'
    """
    if rules is None:
        return game_rules(game)
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, Mapping):
        return game_rules(game, overrides=rules)
    if isinstance(rules, str):
        return game_rules(game, preset=check_preset(rules, "rules"))
    raise UserError(
        "rules must be a RuleSet, a mapping of overrides or a preset ('basic', 'advanced', "
        "'advanced+optional'), "
        f"got {type(rules).__name__}"
    )


def lords_rules(
    overrides: Mapping[str, Any] | None = None,
    *,
    file: str | Path | None = None,
    preset: str | None = None,
) -> RuleSet:
    """The Dragon Lords rules in force (:func:`game_rules` for ``lords``)."""
    return game_rules("lords", overrides, file=file, preset=preset)


def dice_rules(
    overrides: Mapping[str, Any] | None = None,
    *,
    file: str | Path | None = None,
    preset: str | None = None,
) -> RuleSet:
    """The Dragon Dice rules in force (:func:`game_rules` for ``dice``)."""
    return game_rules("dice", overrides, file=file, preset=preset)


def krynn_rules(
    overrides: Mapping[str, Any] | None = None,
    *,
    file: str | Path | None = None,
    preset: str | None = None,
) -> RuleSet:
    """The Warriors of Krynn rules in force (:func:`game_rules` for ``krynn``)."""
    return game_rules("krynn", overrides, file=file, preset=preset)
