"""What every Krynn run shares: the rules in force, the battle type, the records the engine
takes (:class:`~dragonsim.krynn.engine.state.Tables`), the manifest of a records file."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ...errors import UserError, check_int, resolve_name
from ...report import manifest
from ..data import HERO_POLICIES, KrynnRules, default_rules
from ..engine.state import Tables, run_options

#: ``--battle`` values and the probability of an all-out battle each turn (``mixed``: the rule
#: ``krynn.p_all_out_mixed``, 0.5 by default).
BATTLE_TYPES = {"skirmish": 0.0, "all-out": 1.0, "mixed": 0.5}
MAX_HEROES = 5  # printed: "3 to 5 players join the War of the Lance"
MAX_TURNS = 10_000  # battles a game may last (a histogram row per battle)


def _p_all_out(kind: str | float, rules: KrynnRules) -> float:
    if isinstance(kind, int | float) and not isinstance(kind, bool):
        if not 0.0 <= float(kind) <= 1.0:
            raise UserError(f"probability of an all-out battle must be in [0, 1], got {kind}")
        return float(kind)
    name = resolve_name(str(kind), BATTLE_TYPES, "battle type")
    return rules.p_all_out_mixed if name == "mixed" else BATTLE_TYPES[name]


def resolve_rules(rules: KrynnRules | None, overrides: dict[str, Any]) -> KrynnRules:
    """The rules of a run: ``rules`` (default :func:`~dragonsim.krynn.data.default_rules`)
    with ``overrides``."""
    if rules is not None and not isinstance(rules, KrynnRules):
        raise UserError(
            f"rules must be a KrynnRules (dragonsim.krynn.data.default_rules(), "
            f"KrynnRules.from_ruleset(krynn_rules(...))), got {type(rules).__name__}"
        )
    r = rules or default_rules()
    return r.replace(**overrides) if overrides else r


def run_tables(
    rules, *, heroes, hero_policy, tier, max_turns, battle_type, control_limit=0
) -> tuple[KrynnRules, float, Tables]:
    """Check a battle's options and build the engine's rules record: returns ``(rules with the
    hero policy and tier, probability of an all-out battle, Tables)``."""
    if hero_policy is not None:
        rules = rules.replace(hero_policy=resolve_name(hero_policy, HERO_POLICIES, "hero policy"))
    if tier is not None:
        tiers = rules.tier_max_stress
        rules = rules.replace(max_stress=tiers[resolve_name(tier, tiers, "tier")])
    heroes = check_int(heroes, "heroes", 0, MAX_HEROES)
    max_turns = check_int(max_turns, "max_turns", 1, MAX_TURNS)
    p = _p_all_out(battle_type, rules)
    ra = rules.arrays()
    opts = run_options(
        ra.options,
        heroes=heroes,
        max_turns=max_turns,
        stress_bins=int(heroes) * rules.max_stress + 1,
        control_limit=control_limit,
    )
    fopts = np.array([p, float(rules.p_all_out_commanders)], np.float64)
    tables = Tables(ra.cards, ra.sizes, ra.die_hits, ra.die_woe, ra.sk_line, ra.sk_cmd, opts, fopts)
    return rules, p, tables


def records_manifest(command: str, seed, n, r, **what: Any) -> dict[str, Any]:
    """The manifest of a run's records file (:mod:`dragonsim.records`)."""
    return manifest(
        command=command,
        game="warriors-of-krynn",
        seed=int(seed),
        requested=int(n),
        rules_hash=r.hash,
        rules_overrides=r.overrides,
        **what,
    )


def fmt_lines(d: Mapping[str, int]) -> str:
    """``{"foot": 3, ...}`` as ``foot=3,...``."""
    return ",".join(f"{k}={v}" for k, v in d.items())
