"""Rules as data with provenance, and user overrides (see :mod:`dragonsim.rules.core`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .core import PROVENANCES, Rule, RuleSet, load_overrides_file, rows_of
from .lords import RULES as LORDS_RULES

__all__ = [
    "PROVENANCES",
    "Rule",
    "RuleSet",
    "lords_rules",
    "load_overrides_file",
    "rows_of",
]


def lords_rules(
    overrides: Mapping[str, Any] | None = None, *, file: str | Path | None = None
) -> RuleSet:
    """The Dragon Lords rules in force: defaults, then a TOML file, then keyword overrides.

    Keys may omit the ``lords.`` prefix.

    >>> lords_rules(overrides={"altitude_mod": [0, 1, 1, 2, 2]}).get("lords.altitude_mod")
    [0, 1, 1, 2, 2]
    """
    merged: dict[str, Any] = {}
    if file is not None:
        merged.update(load_overrides_file(file))
    for k, v in (overrides or {}).items():
        merged[k if str(k).startswith("lords.") else f"lords.{k}"] = v
    return RuleSet(LORDS_RULES, merged)
