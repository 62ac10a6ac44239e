"""The Dragon Dice rules in force for a run: :class:`Options` (the typed values the kernels'
option arrays are built from), read from a :class:`~dragonsim.rules.core.RuleSet` with API
keywords and an army file's ``[options]`` over it, and the catalog of units, dragons and armies
a run names."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import UserError, resolve_name
from ...rules import RuleSet, dice_rules
from ...rules import registry as _registry
from .. import data as D
from .. import kernel as K


def dice_registry():
    """The Dragon Dice rules registry (key -> Rule)."""
    return _registry("dice")


#: Options fields named otherwise than their rule (``dice.<rule>``)
_FIELD_RULE = {"policy": "casualty_policy"}
#: API keyword / ``[options]`` spellings of a rule besides its own name
_ALIASES = {"policy": "casualty_policy"}


@dataclass(frozen=True)
class Options:
    """The Dragon Dice rules in force, as the typed values the kernels' option arrays are
    built from. It has no defaults of its own: :meth:`from_rules` reads every field from a
    :class:`~dragonsim.rules.core.RuleSet` of :mod:`dragonsim.rules.dice` (each field is the
    rule ``dice.<field>``, ``policy`` is ``dice.casualty_policy``; the rule's ``source`` says
    what each value means and why it is the default).

    ``policy`` may also be a tuple of unit names (first killed first), which the API takes
    beside the rule's named policies.
    """

    rules: RuleSet = field(repr=False, compare=False)
    id_split: str
    policy: str | tuple[str, ...]
    promotion_supply: str
    damage_carries: bool
    claw_damage: int
    jaws_damage: int
    tail_damage: int
    dragon_health: int
    dragon_saves: int
    flame_health: int
    stone_units: int
    breath_negation_rounds: int
    partial_damage: str
    promotion_rounds: str
    promotion_order: str
    treasure_promotes: str
    frost_halving: str
    kin_not_rolled: str
    kin_in_dragon_attack: str
    kin_removed_counts_as_lost: bool
    stone_same_colour_kin: str
    stone_targeting: str
    dvd_targeting: str
    melee_counter_attack: bool
    kin_black_needs_id: bool

    @classmethod
    def fields(cls) -> list[str]:
        """The rule-valued fields (all but ``rules``)."""
        return [f for f in cls.__dataclass_fields__ if f != "rules"]

    @classmethod
    def from_rules(cls, rules: RuleSet, policy: Sequence[str] | None = None) -> Options:
        """The options of ``rules`` (``policy``: a list of unit names instead of the rule's
        named casualty policy)."""
        vals = {f: rules.get("dice." + _FIELD_RULE.get(f, f)) for f in cls.fields()}
        if policy is not None:
            vals["policy"] = tuple(policy)
        return cls(rules=rules, **vals)

    @classmethod
    def defaults(cls) -> Options:
        """The options of the rules as shipped (``dice_rules()``)."""
        return cls.from_rules(dice_rules())

    @classmethod
    def make(cls, **kw: Any) -> Options:
        """Validated options from keyword arguments over the shipped rules (unknown keys
        refused)."""
        overrides, policy = _rule_overrides(kw)
        return cls.from_rules(dice_rules(overrides), policy)

    def array(self) -> np.ndarray:
        """The army and dragon-vs-dragon kernels' ``opts`` array."""
        a = np.zeros(K.NOPT, np.int64)
        a[K.O_ID_SPLIT] = D.ID_SPLITS.index(self.id_split)
        a[K.O_CARRY] = int(self.damage_carries)
        a[K.O_PROMO_UNLIMITED] = int(self.promotion_supply == "unlimited")
        a[K.O_CLAW] = self.claw_damage
        a[K.O_JAWS] = self.jaws_damage
        a[K.O_TAIL] = self.tail_damage
        a[K.O_DHEALTH] = self.dragon_health
        a[K.O_DSAVES] = self.dragon_saves
        a[K.O_FLAME] = self.flame_health
        a[K.O_STONE] = self.stone_units
        a[K.O_NEGATE] = self.breath_negation_rounds
        a[K.O_ROUND_UP] = int(self.partial_damage == "round-up")
        a[K.O_PROMO_ONCE] = int(self.promotion_rounds == "once")
        a[K.O_TREASURE_FIRST] = int(self.promotion_order == "treasure-then-slaying")
        a[K.O_FROST_PER_UNIT] = int(self.frost_halving == "per-unit")
        a[K.O_KIN_NONE_ROLLED] = int(self.kin_not_rolled == "all")
        a[K.O_KIN_MELEE] = int(self.kin_in_dragon_attack == "melee-and-saves")
        a[K.O_KIN_LOST] = int(self.kin_removed_counts_as_lost)
        a[K.O_DVD_FOCUS] = int(self.dvd_targeting == "focus")
        return a

    def melee_array(self) -> np.ndarray:
        """The melee kernel's ``mopts`` array."""
        a = np.zeros(K.NMOPT, np.int64)
        a[K.MO_COUNTER] = int(self.melee_counter_attack)
        a[K.MO_BLACK_NEEDS_ID] = int(self.kin_black_needs_id)
        a[K.MO_KIN_LOST] = int(self.kin_removed_counts_as_lost)
        return a

    def to_dict(self) -> dict[str, Any]:
        return {
            f: (list(v) if isinstance(v, tuple) else v)
            for f in self.fields()
            for v in [getattr(self, f)]
        }


def _rule_overrides(kw: Mapping[str, Any]) -> tuple[dict[str, Any], tuple[str, ...] | None]:
    """API keywords (rule names, or ``policy``) as rule overrides ``{"dice.<name>": value}``;
    a list of unit names given as the policy comes back on its own."""
    names = sorted({k.partition(".")[2] for k in dice_registry()} | set(_ALIASES))
    out: dict[str, Any] = {}
    policy = None
    for key, v in kw.items():
        name = str(key)
        if name.startswith("dice."):
            name = name[5:]
        name = _ALIASES.get(name, name)
        rkey = "dice." + name
        rule = dice_registry().get(rkey)
        if rule is None:
            resolve_name(str(key), names, "option")  # raises, with did-you-mean
            continue
        if name == "casualty_policy" and isinstance(v, list | tuple):
            policy = tuple(str(u) for u in v)
            continue
        if isinstance(rule.value, bool) and isinstance(v, int | np.integer) and v in (0, 1):
            v = bool(v)
        elif isinstance(v, np.integer) and not isinstance(v, bool):
            v = int(v)
        if isinstance(v, str) and rule.choices:
            v = resolve_name(v, rule.choices, name)
        out[rkey] = v
    return out, policy


def _options(
    options: Options | None,
    cat: D.Catalog,
    kw: Mapping[str, Any],
    rules: RuleSet | None = None,
) -> Options:
    """The options in force: ``rules`` (default: the shipped rules; a rules file's
    ``[dice]`` table comes in this way) < an army file's ``[options]`` < ``options`` <
    keyword arguments."""
    if options is not None and not isinstance(options, Options):
        raise UserError(f"options must be dice Options, got {type(options).__name__}")
    if rules is not None and not isinstance(rules, RuleSet):
        raise UserError(
            f"rules must be a RuleSet of the Dice rules (dragonsim.rules.dice_rules(...)), "
            f"got {type(rules).__name__}"
        )
    if options is not None and not kw and not cat.options and rules is None:
        return options
    base = rules if rules is not None else dice_rules()
    merged: dict[str, Any] = {}
    policy = None
    layers: list[Mapping[str, Any]] = [cat.options]
    if options is not None:
        layers.append(options.to_dict())
    layers.append(kw)
    for layer in layers:
        o, p = _rule_overrides(layer)
        merged.update(o)
        if p is not None:
            policy = p
        elif "dice.casualty_policy" in o:
            policy = None
    return Options.from_rules(base.with_overrides(merged), policy)


def _catalog(catalog: D.Catalog | None, army_file: str | Path | None) -> D.Catalog:
    if catalog is not None and not isinstance(catalog, D.Catalog):
        raise UserError(f"catalog must be a dice Catalog, got {type(catalog).__name__}")
    cat = catalog or D.Catalog()
    if army_file is not None:
        if not isinstance(army_file, str | Path):
            raise UserError(f"army file: expected a file path, got {army_file!r}")
        cat = D.load_toml(army_file, cat)
    return cat
