"""Warriors of Krynn rules as typed values: dice, unit card decks, commanders, options.

The rules themselves (values, provenance, the reasoning for each assumed value, the values each
may take) are data in :mod:`dragonsim.rules.krynn`; :func:`dragonsim.rules.krynn_rules` gives
them in force (defaults, a rules file's ``[krynn]`` table, overrides). :class:`KrynnRules` is
the typed, immutable view of one such :class:`~dragonsim.rules.core.RuleSet` that the kernels'
arrays come from (:meth:`KrynnRules.arrays`); it keeps no defaults of its own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import UserError, resolve_name
from ..rules import krynn_rules
from ..rules.core import RuleSet, rows_of
from ..rules.krynn import (
    DECK_ROWS,
    EFFECTS,
    FACE_KINDS,
    HERO_POLICIES,
    HIT_POLICIES,
    HOOKS,
    LINES,
    MUTUAL,
    RULES,
    SIDES,
    format_card,
    format_commander,
    parse_card,
    parse_commander,
)

__all__ = [
    "SIDES",
    "LINES",
    "MAX_UNITS",
    "DieFace",
    "SkirmishFace",
    "UnitCard",
    "Commander",
    "KrynnRules",
    "KernelArrays",
    "default_rules",
    "load_rules",
    "assumed",
    "COMMANDERS",
    "OPTION_ORDER",
]

#: Printed: "Each battle line has space for 6 units." (the default ``krynn.line_capacity``)
MAX_UNITS = RULES["krynn.line_capacity"].value
#: Printed maximum stress per tier (the default ``krynn.tier_max_stress``)
MAX_STRESS = dict(RULES["krynn.tier_max_stress"].value)

# kernel codes -------------------------------------------------------------------------------
TARGET_ANY = 3  # a unit card's "any line"; commander hooks use it for "the fighting line"
KIND_HITS, KIND_DICE = 0, 1

#: the rules that travel to the kernels as integer options, in the kernels' slot order
#: (``krynn/engine/state.py`` ``O_*``; a test checks the two agree), and the values each may take
#: (a value's code is its index; code 0 is always the default reading)
OPTION_ORDER: tuple[tuple[str, tuple[str, ...] | None], ...] = (
    ("alliance_hits", HIT_POLICIES),
    ("army_hits", HIT_POLICIES),
    ("hero_policy", HERO_POLICIES),
    ("max_stress", None),
    ("mutual_control", MUTUAL),
    ("barricade_order", RULES["krynn.barricade_order"].choices),
    ("any_line", RULES["krynn.any_line"].choices),
    ("empty_lines", RULES["krynn.empty_lines"].choices),
    ("hero_choice", RULES["krynn.hero_choice"].choices),
    ("stress_recovery", None),
    ("commander_fighting_line", RULES["krynn.commander_fighting_line"].choices),
    ("commander_dice_woe", RULES["krynn.commander_dice_woe"].choices),
    ("flank_move", RULES["krynn.flank_move"].choices),
    ("active_flank", RULES["krynn.active_flank"].choices),
    ("line_capacity", None),
)


@dataclass(frozen=True)
class DieFace:
    """One kind of battle-die face: its hits and Woe results, and how many faces show it."""

    name: str
    hits: int
    woe: int
    count: int


@dataclass(frozen=True)
class SkirmishFace:
    """A skirmish-die face: the line that fights and whether the commander symbol is shown."""

    line: str
    commander: bool


@dataclass(frozen=True)
class UnitCard:
    """A unit card.

    Parameters
    ----------
    name
        A label.
    kind
        ``"hits"`` (apply ``amount`` hits) or ``"dice"`` (roll ``amount`` battle dice).
    amount
        Hits or dice.
    target
        The defending line that takes the hits: ``"foot"``, ``"missile"``, ``"mounted"`` or
        ``"any"`` (the hero whose turn it is decides).
    effect
        Side effect after the hits: ``"none"``, ``"shake-commander"`` (shake the defending
        side's commander), ``"rally"`` (refresh ``effect_amount`` shaken units of the attacking
        line), ``"tactic"`` (add tactic tokens to the attacking line), ``"barricade"`` (add
        barricades to the attacking line) or ``"shake"`` (Shake ready units of the target line;
        units on barricades are immune).
    effect_amount
        How many units / tokens the effect concerns.
    copies
        Copies of the card in the deck.
    """

    name: str
    kind: str
    amount: int
    target: str
    effect: str = "none"
    effect_amount: int = 0
    copies: int = 1


@dataclass(frozen=True)
class Commander:
    """A commander card as one power hook.

    ``hook`` is one of ``"none"``, ``"hits"`` (``amount`` hits to the opposing ``target``
    line), ``"dice"`` (roll ``amount`` battle dice at it; Woe results are ignored, assumed),
    ``"tactic"``, ``"barricade"``, ``"rally"`` (own ``target`` line) or ``"shake"`` (Shake
    ``amount`` ready units of the opposing line). ``target`` is a line name or ``"fighting"``
    (the skirmish line; Foot in an all-out battle).
    """

    name: str
    hook: str
    amount: int = 1
    target: str = "fighting"
    provenance: str = "assumed"


def _commanders_from(table: Mapping[str, str]) -> dict[str, Commander]:
    out = {}
    for name, text in table.items():
        c = parse_commander(text)
        out[str(name)] = Commander(str(name), c["hook"], c["amount"], c["target"])
    return out


#: Shipped commanders (the default ``krynn.commanders``; assumed: no commander texts are
#: printed)
COMMANDERS: dict[str, Commander] = _commanders_from(RULES["krynn.commanders"].value)


def _card_from(text: str) -> UnitCard:
    return UnitCard(**parse_card(text))


@dataclass(frozen=True)
class KernelArrays:
    """Everything the rules give the battle and battlefield kernels, as plain arrays."""

    cards: np.ndarray  # int64[2, 3, m, 5]: kind, amount, target, effect, effect amount
    sizes: np.ndarray  # int64[2, 3]: cards per deck
    die_hits: np.ndarray  # int64[k]: hits of each physical battle-die face
    die_woe: np.ndarray  # int64[k]
    sk_line: np.ndarray  # int64[j]: the skirmish die's line per face
    sk_cmd: np.ndarray  # int64[j]: 1 where the face shows the commander symbol
    options: np.ndarray  # int64[len(OPTION_ORDER)]


@dataclass(frozen=True)
class KrynnRules:
    """The Warriors of Krynn rules in force, as typed values (immutable).

    Built from a :class:`~dragonsim.rules.core.RuleSet` (:meth:`from_ruleset`,
    :func:`default_rules`, :func:`load_rules`); :meth:`replace` gives a copy with overrides
    (rule names, as the ``[krynn]`` table of a rules file takes them, or the typed values
    below); :meth:`arrays` gives the plain arrays the kernels take. Every field is the value of
    the rule ``krynn.<field>`` (:mod:`dragonsim.rules.krynn` says where each comes from).
    """

    ruleset: RuleSet
    battle_die: tuple[DieFace, ...]
    skirmish_die: tuple[SkirmishFace, ...]
    decks: dict[str, dict[str, tuple[UnitCard, ...]]]
    commanders: dict[str, Commander]
    alliance_hits: str
    army_hits: str
    hero_policy: str
    max_stress: int
    tier_max_stress: dict[str, int]
    line_capacity: int
    mutual_control: str
    p_all_out_commanders: float
    p_all_out_mixed: float
    barricade_order: str
    any_line: str
    empty_lines: str
    hero_choice: str
    stress_recovery: int
    commander_fighting_line: str
    commander_dice_woe: str
    flank_move: str
    active_flank: str
    conflict_retry: str

    # -- construction ----------------------------------------------------------------------
    @classmethod
    def from_ruleset(cls, rs: RuleSet | None = None) -> KrynnRules:
        """The typed view of ``rs`` (default: :func:`dragonsim.rules.krynn_rules`)."""
        rs = krynn_rules() if rs is None else rs

        def g(name):
            return rs.get(f"krynn.{name}")

        faces = g("die_faces")
        die = tuple(DieFace(k, *faces[k], int(n)) for k, n in g("battle_die").items())
        skirmish = tuple(
            SkirmishFace(f.partition("+")[0], bool(f.partition("+")[2])) for f in g("skirmish_die")
        )
        table = g("decks")
        decks = {
            s: {line: tuple(_card_from(c) for c in table[f"{s}_{line}"]) for line in LINES}
            for s in SIDES
        }
        plain = {
            f.name: g(f.name)
            for f in dataclasses.fields(cls)
            if f.name not in ("ruleset", "battle_die", "skirmish_die", "decks", "commanders")
        }
        plain["p_all_out_commanders"] = float(plain["p_all_out_commanders"])
        plain["p_all_out_mixed"] = float(plain["p_all_out_mixed"])
        plain["tier_max_stress"] = dict(plain["tier_max_stress"])
        return cls(
            ruleset=rs,
            battle_die=die,
            skirmish_die=skirmish,
            decks=decks,
            commanders=_commanders_from(g("commanders")),
            **plain,
        )

    def replace(self, **changes: Any) -> KrynnRules:
        """A copy with some rules changed (checked), recording the overrides.

        Keys are rule names with or without ``krynn.`` (``alliance_hits``,
        ``"battle_die.woe"``, ``"krynn.decks.army_foot"``), and the typed forms of the fields:
        ``battle_die`` as ``{kind: count}`` for every kind or a sequence of :class:`DieFace`,
        ``skirmish_die`` as faces (``"foot"``, ``"foot+commander"`` or :class:`SkirmishFace`),
        ``decks`` as ``{side: {line: [UnitCard | dict | card text]}}``, ``commanders`` as
        ``{name: Commander | text}``."""
        ov: dict[str, Any] = {}
        for k, v in changes.items():
            key = k if k.startswith("krynn.") else f"krynn.{k}"
            name = key[len("krynn.") :]
            if name == "battle_die":
                ov.update(_die_overrides(v))
            elif name == "skirmish_die":
                ov[key] = [_skirmish_text(f) for f in v]
            elif name == "decks":
                ov.update(_deck_overrides(v))
            elif name == "commanders":
                ov.update(_commander_overrides(v))
            else:
                ov[key] = _plain(v)
        return KrynnRules.from_ruleset(self.ruleset.with_overrides(ov))

    @property
    def overrides(self) -> dict[str, Any]:
        """The rules overridden from their defaults: ``{"krynn.key": value}``."""
        return self.ruleset.overrides

    @property
    def hash(self) -> str:
        """The rules hash (of every value in force)."""
        return self.ruleset.hash

    def validate(self) -> None:
        """Raise :class:`UserError` on anything the kernels cannot play. (Every value was
        checked when the :class:`~dragonsim.rules.core.RuleSet` was built; this re-checks the
        typed values.)"""
        if sum(f.count for f in self.battle_die) < 1:
            raise UserError("battle die needs at least one face")
        if not self.skirmish_die:
            raise UserError("skirmish die needs at least one face")
        for side in SIDES:
            for line in LINES:
                if sum(c.copies for c in self.decks[side][line]) < 1:
                    raise UserError(f"the {side} {line} unit deck is empty")

    # -- to kernels ------------------------------------------------------------------------
    def die_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """Battle die as ``(hits[k], woe[k])`` int64 arrays, one entry per physical face."""
        hits, woe = [], []
        for f in self.battle_die:
            hits += [f.hits] * f.count
            woe += [f.woe] * f.count
        return np.array(hits, np.int64), np.array(woe, np.int64)

    def skirmish_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """Skirmish die as ``(line[k], commander[k])`` int64 arrays."""
        line = [LINES.index(f.line) for f in self.skirmish_die]
        cmd = [int(bool(f.commander)) for f in self.skirmish_die]
        return np.array(line, np.int64), np.array(cmd, np.int64)

    def deck_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """Decks as ``cards[2, 3, m, 5]`` (kind, amount, target, effect, effect_amount) and
        ``sizes[2, 3]``; copies are expanded into separate cards."""
        rows = {}
        for s, side in enumerate(SIDES):
            for li, line in enumerate(LINES):
                r = []
                for c in self.decks[side][line]:
                    t = (*LINES, "any").index(c.target)
                    e = EFFECTS.index(c.effect)
                    k = KIND_DICE if c.kind == "dice" else KIND_HITS
                    r += [(k, c.amount, t, e, c.effect_amount)] * c.copies
                rows[s, li] = r
        m = max(len(r) for r in rows.values())
        cards = np.zeros((2, 3, m, 5), np.int64)
        sizes = np.zeros((2, 3), np.int64)
        for (s, li), r in rows.items():
            sizes[s, li] = len(r)
            if r:
                cards[s, li, : len(r)] = np.array(r, np.int64)
        return cards, sizes

    def options_array(self) -> np.ndarray:
        """The integer options, in :data:`OPTION_ORDER` (the kernels' first option slots)."""
        out = []
        for name, choices in OPTION_ORDER:
            v = getattr(self, name)
            out.append(int(v) if choices is None else choices.index(v))
        return np.array(out, np.int64)

    def arrays(self) -> KernelArrays:
        """Every array the kernels take from the rules."""
        cards, sizes = self.deck_arrays()
        dh, dw = self.die_arrays()
        sl, sc = self.skirmish_arrays()
        return KernelArrays(cards, sizes, dh, dw, sl, sc, self.options_array())

    def to_dict(self) -> dict[str, Any]:
        """JSON-able rules (for manifests): the hash, the overrides and every value."""
        return self.ruleset.to_dict()


def _die_overrides(v: Any) -> dict[str, Any]:
    if isinstance(v, Mapping):  # {"blank": 2, "single": 2, "double": 1, "woe": 1}
        return {"krynn.battle_die": dict(v)}
    faces = [f if isinstance(f, DieFace) else DieFace(**f) for f in v]
    names = [f.name for f in faces]
    for f in faces:
        resolve_name(f.name, FACE_KINDS, "battle die face")
    if sorted(names) != sorted(FACE_KINDS):
        raise UserError(
            f"battle die: give each face kind once ({', '.join(FACE_KINDS)}), got "
            f"{', '.join(names) or 'none'}"
        )
    return {
        "krynn.die_faces": {f.name: [f.hits, f.woe] for f in faces},
        "krynn.battle_die": {f.name: f.count for f in faces},
    }


def _skirmish_text(f: Any) -> str:
    if isinstance(f, SkirmishFace):
        return f.line + ("+commander" if f.commander else "")
    if isinstance(f, Mapping):
        return _skirmish_text(SkirmishFace(**f))
    return str(f)


def _card_text(c: Any) -> str:
    if isinstance(c, str):
        return c
    if isinstance(c, Mapping):
        c = UnitCard(**c)
    if ":" in c.name or "," in c.name:
        raise UserError(f"unit card name {c.name!r}: a name may not contain ':' or ','")
    return format_card(c.name, c.kind, c.amount, c.target, c.effect, c.effect_amount, c.copies)


def _deck_overrides(v: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for side, lines in v.items():
        if str(side) in DECK_ROWS:  # already a row of krynn.decks
            out[f"krynn.decks.{side}"] = [_card_text(c) for c in lines]
            continue
        s = resolve_name(str(side), SIDES, "side")
        for line, cards in lines.items():
            li = resolve_name(str(line), LINES, "line")
            out[f"krynn.decks.{s}_{li}"] = [_card_text(c) for c in cards]
    return out


def _commander_overrides(v: Any) -> dict[str, Any]:
    out = {}
    for name, c in v.items():
        if isinstance(c, Commander):
            c = format_commander(c.hook, c.amount, c.target)
        out[f"krynn.commanders.{name}"] = c
    return out


def commander_array(
    commanders: list[str | Commander | None], table: Mapping[str, Commander] | None = None
) -> np.ndarray:
    """Commanders as ``int64[k, 3]`` rows (hook, amount, target) for the kernels; names are
    looked up in ``table`` (default :data:`COMMANDERS`)."""
    out = np.zeros((max(1, len(commanders)), 3), np.int64)
    for i, c in enumerate(commanders):
        c = resolve_commander(c, table)
        t = (*LINES, "fighting").index(resolve_name(c.target, (*LINES, "fighting"), "target"))
        out[i] = (HOOKS.index(resolve_name(c.hook, HOOKS, "commander hook")), c.amount, t)
    return out


def resolve_commander(
    c: str | Commander | None, table: Mapping[str, Commander] | None = None
) -> Commander:
    """A :class:`Commander` from a name in ``table`` (default :data:`COMMANDERS`), an
    instance or None (no commander)."""
    table = COMMANDERS if table is None else table
    if c is None:
        return table["none"]
    if isinstance(c, Commander):
        resolve_name(c.hook, HOOKS, "commander hook")
        if c.amount < 0:
            raise UserError(f"commander {c.name!r}: amount must be >= 0")
        return c
    return table[resolve_name(str(c), table, "commander")]


def default_rules() -> KrynnRules:
    """The rules with every value at its default (:func:`dragonsim.rules.krynn_rules`)."""
    return KrynnRules.from_ruleset(krynn_rules())


def _plain(v: Any) -> Any:
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return _plain(dataclasses.asdict(v))
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_plain(x) for x in v]
    return v


def load_rules(path: str | Path, base: KrynnRules | None = None) -> KrynnRules:
    """The rules with a rules file's ``[krynn]`` table applied (on ``base``'s overrides, if
    given). Keys are the rule names ``python -m dragonsim rules --game krynn`` lists, or
    ``rule.ROW`` for one row of a table::

        [krynn]
        alliance_hits = "ready-first"
        battle_die = { blank = 3, single = 1, double = 1, woe = 1 }
        "battle_die.woe" = 2
        "decks.army_foot" = ["3x Horde: 3 dice -> foot", "Hold: 1 dice -> foot, barricade 1"]
        conflict_retry = "carry-over"
    """
    rs = krynn_rules(file=path)
    if base is not None:
        rs = base.ruleset.with_overrides(rs.overrides)
    return KrynnRules.from_ruleset(rs)


def assumed(rules: KrynnRules | None = None) -> list[dict[str, Any]]:
    """Every Warriors of Krynn rule (one row per rule or table row) with its provenance.

    Returns rows ``{key, value, provenance, used_in, source}`` (also as ``where_used`` and
    ``reason``), the values those in force in ``rules``.
    """
    rs = (rules or default_rules()).ruleset
    rows = rows_of(rs)
    for r in rows:
        r["where_used"] = r["used_in"]
        r["reason"] = r["source"]
    return rows
