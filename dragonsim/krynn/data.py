"""Warriors of Krynn rules data: dice, unit card decks, commanders, options, provenance.

The rulebook (``shared/seeds/004_dd892e90c9e5b1f9.txt``) names the kinds of faces on the battle
and skirmish dice but not their counts, and prints no unit or commander card texts. Every value
here therefore carries a provenance:

- ``printed``: stated in the rulebook (the wording is quoted beside it),
- ``derived``: forced by printed values,
- ``assumed``: our choice where nothing printed decides (``RULES-GAPS.md``, "Warriors of Krynn:
  assumed values"); every assumed value is overridable by keyword (:meth:`KrynnRules.replace`)
  or a TOML file (:func:`load_rules`) and listed by :func:`assumed`.

Everything a study may vary travels to the kernels as plain arrays (:meth:`KrynnRules.arrays`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import UserError, resolve_name
from ..rules.core import read_toml

__all__ = [
    "SIDES",
    "LINES",
    "MAX_UNITS",
    "DieFace",
    "SkirmishFace",
    "UnitCard",
    "Commander",
    "KrynnRules",
    "default_rules",
    "load_rules",
    "assumed",
    "COMMANDERS",
]

#: The two sides; index 0 is the Alliance, 1 the Dragon Army (kernel convention).
SIDES = ("alliance", "army")
#: Battle lines in fighting order. Printed: "all 3 lines fight in the following order: Foot,
#: Missile, then Mounted (from the inside of the battle tile to the outside)".
LINES = ("foot", "missile", "mounted")
#: Printed: "Each battle line has space for 6 units."
MAX_UNITS = 6
#: Printed: "For Recruit-tier scenarios, your maximum stress is 4; ... Veteran ... 5; ...
#: Legendary ... 6."
MAX_STRESS = {"recruit": 4, "veteran": 5, "legendary": 6}

# kernel codes -------------------------------------------------------------------------------
TARGET_ANY = 3  # a unit card's "any line"; commander hooks use it for "the fighting line"
KIND_HITS, KIND_DICE = 0, 1
EFFECTS = ("none", "shake-commander", "rally", "tactic", "barricade", "shake")
HOOKS = ("none", "hits", "dice", "tactic", "barricade", "rally", "shake")
HIT_POLICIES = ("shaken-first", "ready-first")
HERO_POLICIES = ("never", "removals", "all", "last")
MUTUAL = ("army", "alliance", "none")


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


#: Shipped commanders (assumed: the rulebook prints no commander texts; "Ready commanders have
#: powers that activate before some battles. A commander's power affects only that commander's
#: battle tile").
COMMANDERS: dict[str, Commander] = {
    c.name: c
    for c in (
        Commander("none", "none", 0),
        Commander("rally", "rally", 1),
        Commander("fortify", "barricade", 1),
        Commander("tactician", "tactic", 1),
        Commander("volley", "dice", 2),
        Commander("strike", "hits", 1),
        Commander("terror", "shake", 1),
    )
}


def _deck(side: str) -> tuple[tuple[str, tuple[UnitCard, ...]], ...]:
    # Assumed default decks, the same for both sides, so that the printed asymmetries (ties to
    # the Dragon Army, heroes absorbing hits for the Alliance) are the only ones by default.
    del side
    foot = (
        UnitCard("Advance", "dice", 2, "foot", copies=2),
        UnitCard("Press", "dice", 3, "foot"),
        UnitCard("Shield wall", "hits", 1, "foot", "rally", 1),
        UnitCard("Flank", "dice", 2, "any"),
        UnitCard("Hold", "dice", 1, "foot", "barricade", 1),
    )
    missile = (
        UnitCard("Volley", "dice", 2, "any", copies=2),
        UnitCard("Aimed fire", "dice", 2, "missile", copies=2),
        UnitCard("Arrow storm", "hits", 2, "foot"),
        UnitCard("Skirmishers", "dice", 1, "mounted", "tactic", 1),
    )
    mounted = (
        UnitCard("Charge", "dice", 3, "mounted", copies=2),
        UnitCard("Ride down", "dice", 2, "foot"),
        UnitCard("Outflank", "dice", 2, "missile"),
        UnitCard("Lances", "hits", 2, "missile"),
        UnitCard("Rout", "dice", 2, "mounted", "shake-commander", 1),
    )
    return (("foot", foot), ("missile", missile), ("mounted", mounted))


@dataclass(frozen=True)
class KrynnRules:
    """All Warriors of Krynn rules data and options, with their provenance.

    Build the default with :func:`default_rules`, change it with :meth:`replace` or
    :func:`load_rules`; :meth:`arrays` gives the plain arrays the kernels take.
    """

    battle_die: tuple[DieFace, ...]
    skirmish_die: tuple[SkirmishFace, ...]
    decks: dict[str, dict[str, tuple[UnitCard, ...]]]
    alliance_hits: str = "shaken-first"
    army_hits: str = "ready-first"
    hero_policy: str = "last"
    max_stress: int = 4
    mutual_control: str = "army"
    p_all_out_commanders: float = 0.5
    overrides: dict[str, Any] = field(default_factory=dict)

    # -- construction ----------------------------------------------------------------------
    def replace(self, **changes: Any) -> KrynnRules:
        """A copy with some fields changed (validated), recording the overrides."""
        names = {f.name for f in dataclasses.fields(self)} - {"overrides"}
        for k in changes:
            if k not in names:
                resolve_name(k, sorted(names), "rules field")
        conv = dict(changes)
        if "battle_die" in conv:
            conv["battle_die"] = _die_from(conv["battle_die"])
        if "skirmish_die" in conv:
            conv["skirmish_die"] = _skirmish_from(conv["skirmish_die"])
        if "decks" in conv:
            conv["decks"] = _decks_from(conv["decks"], self.decks)
        new = dataclasses.replace(
            self, **conv, overrides={**self.overrides, **{k: _plain(v) for k, v in changes.items()}}
        )
        new.validate()
        return new

    def validate(self) -> None:
        """Raise :class:`UserError` on anything the kernels cannot play."""
        if not self.battle_die or sum(f.count for f in self.battle_die) < 1:
            raise UserError("battle die needs at least one face")
        for f in self.battle_die:
            if f.count < 0 or f.hits < 0 or f.woe < 0:
                raise UserError(f"battle die face {f.name!r}: counts, hits and woe must be >= 0")
        if not self.skirmish_die:
            raise UserError("skirmish die needs at least one face")
        for side in SIDES:
            for line in LINES:
                cards = self.decks[side][line]
                if sum(c.copies for c in cards) < 1:
                    raise UserError(f"the {side} {line} unit deck is empty")
                for c in cards:
                    if c.kind not in ("hits", "dice"):
                        raise UserError(
                            f"unit card {c.name!r}: kind must be 'hits' or 'dice', got {c.kind!r}"
                        )
                    if c.amount < 0 or c.effect_amount < 0 or c.copies < 0:
                        raise UserError(f"unit card {c.name!r}: amounts must be >= 0")
                    resolve_name(c.target, (*LINES, "any"), f"target line of card {c.name!r}")
                    resolve_name(c.effect, EFFECTS, f"effect of card {c.name!r}")
        resolve_name(self.alliance_hits, HIT_POLICIES, "alliance_hits policy")
        resolve_name(self.army_hits, HIT_POLICIES, "army_hits policy")
        resolve_name(self.hero_policy, HERO_POLICIES, "hero policy")
        resolve_name(self.mutual_control, MUTUAL, "mutual_control")
        if not 1 <= int(self.max_stress) <= 20:
            raise UserError(f"max_stress must be between 1 and 20, got {self.max_stress}")
        if not 0.0 <= float(self.p_all_out_commanders) <= 1.0:
            raise UserError(
                f"p_all_out_commanders must be in [0, 1], got {self.p_all_out_commanders}"
            )

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
        line = [
            LINES.index(resolve_name(f.line, LINES, "skirmish line")) for f in self.skirmish_die
        ]
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
                    t = (*LINES, "any").index(resolve_name(c.target, (*LINES, "any"), "target"))
                    e = EFFECTS.index(resolve_name(c.effect, EFFECTS, "effect"))
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
        """Integer options: alliance hit policy, army hit policy, hero policy, max stress,
        mutual control."""
        return np.array(
            [
                HIT_POLICIES.index(resolve_name(self.alliance_hits, HIT_POLICIES, "policy")),
                HIT_POLICIES.index(resolve_name(self.army_hits, HIT_POLICIES, "policy")),
                HERO_POLICIES.index(resolve_name(self.hero_policy, HERO_POLICIES, "policy")),
                int(self.max_stress),
                MUTUAL.index(resolve_name(self.mutual_control, MUTUAL, "mutual_control")),
            ],
            np.int64,
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-able rules (for manifests and the rules hash)."""
        return _plain(dataclasses.asdict(self))


def commander_array(commanders: list[str | Commander | None]) -> np.ndarray:
    """Commanders as ``int64[k, 3]`` rows (hook, amount, target) for the kernels."""
    out = np.zeros((max(1, len(commanders)), 3), np.int64)
    for i, c in enumerate(commanders):
        c = resolve_commander(c)
        t = (*LINES, "fighting").index(resolve_name(c.target, (*LINES, "fighting"), "target"))
        out[i] = (HOOKS.index(resolve_name(c.hook, HOOKS, "commander hook")), c.amount, t)
    return out


def resolve_commander(c: str | Commander | None) -> Commander:
    """A :class:`Commander` from a shipped name, an instance or None (no commander)."""
    if c is None:
        return COMMANDERS["none"]
    if isinstance(c, Commander):
        resolve_name(c.hook, HOOKS, "commander hook")
        if c.amount < 0:
            raise UserError(f"commander {c.name!r}: amount must be >= 0")
        return c
    return COMMANDERS[resolve_name(str(c), COMMANDERS, "commander")]


def default_rules() -> KrynnRules:
    """The rules with every assumed value at its default (see :func:`assumed`)."""
    die = (
        DieFace("blank", 0, 0, 2),
        DieFace("single", 1, 0, 2),
        DieFace("double", 2, 0, 1),
        DieFace("woe", 0, 1, 1),
    )
    skirmish = tuple(SkirmishFace(line, cmd) for cmd in (False, True) for line in LINES)
    decks = {side: dict(_deck(side)) for side in SIDES}
    r = KrynnRules(die, skirmish, decks)
    r.validate()
    return r


def _plain(v: Any) -> Any:
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return _plain(dataclasses.asdict(v))
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_plain(x) for x in v]
    return v


def _die_from(v: Any) -> tuple[DieFace, ...]:
    if isinstance(v, dict):  # {"blank": 2, "single": 2, "double": 1, "woe": 1}
        known = {"blank": (0, 0), "single": (1, 0), "double": (2, 0), "woe": (0, 1)}
        out = []
        for k, n in v.items():
            name = resolve_name(k, known, "battle die face")
            if not isinstance(n, int) or n < 0:
                raise UserError(f"battle die face {name!r}: count must be a whole number >= 0")
            out.append(DieFace(name, *known[name], n))
        return tuple(out)
    return tuple(f if isinstance(f, DieFace) else DieFace(**f) for f in v)


def _skirmish_from(v: Any) -> tuple[SkirmishFace, ...]:
    out = []
    for f in v:
        if isinstance(f, SkirmishFace):
            out.append(f)
        elif isinstance(f, str):  # "foot", "foot+commander"
            line, _, cmd = f.partition("+")
            out.append(SkirmishFace(resolve_name(line, LINES, "skirmish line"), bool(cmd)))
        else:
            out.append(SkirmishFace(**f))
    return tuple(out)


def _decks_from(v: Any, base: dict) -> dict:
    out = {s: dict(base[s]) for s in SIDES}
    for side, lines in v.items():
        s = resolve_name(side, SIDES, "side")
        for line, cards in lines.items():
            li = resolve_name(line, LINES, "line")
            out[s][li] = tuple(c if isinstance(c, UnitCard) else UnitCard(**c) for c in cards)
    return out


def load_rules(path: str | Path, base: KrynnRules | None = None) -> KrynnRules:
    """Read overrides from a TOML file.

    The file may set any :class:`KrynnRules` field at top level, e.g.::

        battle_die = { blank = 3, single = 1, double = 1, woe = 1 }
        skirmish_die = ["foot", "missile", "mounted", "foot+commander", "missile+commander",
                        "mounted+commander"]
        alliance_hits = "ready-first"
        [[decks.army.foot]]
        name = "Horde"
        kind = "dice"
        amount = 3
        target = "foot"
    """
    p = Path(path)
    data = read_toml(p, "rules file")
    try:
        return (base or default_rules()).replace(**data)
    except TypeError as e:
        raise UserError(f"rules file {str(p)!r}: {e}") from None


def assumed(rules: KrynnRules | None = None) -> list[dict[str, Any]]:
    """Every Warriors of Krynn value not printed in the rulebook, with its provenance.

    Returns rows ``{key, value, provenance, where_used, reason}`` (for
    ``python -m dragonsim rules --assumed``). Printed values used by the kernels are listed too,
    with provenance ``printed`` and the rulebook's words.
    """
    r = rules or default_rules()
    rows: list[dict[str, Any]] = []

    def add(key, value, prov, where, reason):
        rows.append(
            {"key": key, "value": value, "provenance": prov, "where_used": where, "reason": reason}
        )

    add(
        "krynn.battle_die",
        {f.name: f.count for f in r.battle_die},
        "assumed",
        "every battle and conflict roll",
        "rulebook: 'Each battle die has one or more of each of these faces' (counts not printed);"
        " RULES-GAPS.md: Blank 2, Single Hit 2, Double Hit 1, Woe 1",
    )
    add(
        "krynn.skirmish_die",
        [f.line + ("+commander" if f.commander else "") for f in r.skirmish_die],
        "assumed",
        "skirmish line and commander activation",
        "rulebook names the symbols only; RULES-GAPS.md: each line once plain, once with the"
        " commander symbol",
    )
    for side in SIDES:
        for line in LINES:
            add(
                f"krynn.decks.{side}.{line}",
                [
                    f"{c.copies}x {c.name}: {c.amount} {c.kind} -> {c.target}"
                    + (f", {c.effect} {c.effect_amount}" if c.effect != "none" else "")
                    for c in r.decks[side][line]
                ],
                "assumed",
                "unit card reveal in every fight",
                "no unit card texts are printed; same default deck for both sides",
            )
    add(
        "krynn.commanders",
        {k: f"{c.hook} {c.amount} -> {c.target}" for k, c in COMMANDERS.items()},
        "assumed",
        "commander powers before battles",
        "no commander card texts are printed",
    )
    add(
        "krynn.alliance_hits",
        r.alliance_hits,
        "assumed",
        "which Alliance unit a hit takes",
        "rulebook silent on which unit of a line takes a hit; the players keep units ready",
    )
    add(
        "krynn.army_hits",
        r.army_hits,
        "assumed",
        "which Dragon Army unit a hit takes",
        "rulebook silent; the players (who run the battle) shake Dragon Army units first",
    )
    add(
        "krynn.hero_policy",
        r.hero_policy,
        "assumed",
        "heroes absorbing hits as stress",
        "'Heroes on the active flank may choose to absorb hits'; default: only a hit that would"
        " leave the Alliance no ready unit on the tile",
    )
    add(
        "krynn.max_stress",
        r.max_stress,
        "printed",
        "hero absorption limit",
        "'For Recruit-tier scenarios, your maximum stress is 4'",
    )
    add(
        "krynn.mutual_control",
        r.mutual_control,
        "assumed",
        "both sides left without ready units in one battle",
        "rulebook silent; ties go to the Dragon Army as in combat strength",
    )
    add(
        "krynn.p_all_out_commanders",
        r.p_all_out_commanders,
        "assumed",
        "commander powers in all-out battles",
        "'activate if instructed to by the last event card' (event deck not modelled)",
    )
    add(
        "krynn.any_line",
        "Alliance attacking: the Army line with ready units needing fewest"
        " hits to shake them all; Army attacking: the Alliance line with most barricades+ready"
        " units",
        "assumed",
        "unit cards whose hits may go to any line",
        "'the hero whose turn it is decides which defending line'",
    )
    add(
        "krynn.barricade_order",
        "barricades under shaken units are spent first",
        "assumed",
        "barricade removal and immunity to Shake",
        "which barricade absorbs a hit is not printed",
    )
    add(
        "krynn.battle_mix",
        "battle='mixed': all-out with probability 0.5 each turn (battlefield default)",
        "assumed",
        "battle type when not given",
        "'The kind of battle is set by the last event card revealed' (event deck not modelled)",
    )
    add(
        "krynn.commander_fighting_line",
        "fighting line = Foot in an all-out battle",
        "assumed",
        "commander hooks aimed at 'the fighting line'",
        "no commander texts printed",
    )
    add(
        "krynn.flank_move",
        "nearest uncontrolled battle tile, left/right at random",
        "assumed",
        "battlefield: flank token and units moving on control",
        "'move that tile's flank token ... to a neighboring battle tile'",
    )
    add(
        "krynn.active_flank",
        "uncontrolled tile chosen with probability proportional to its flank tokens",
        "assumed",
        "battlefield: which tile battles each turn",
        "event cards choose it; 'more likely to be the active flank' with more flank tokens",
    )
    add(
        "krynn.commander_dice_woe",
        "Woe results of a commander's 'dice' power are ignored",
        "assumed",
        "commander powers that roll battle dice",
        "Woe in battle hits 'the attacking line'; a commander power has none",
    )
    add(
        "krynn.hero_choice",
        "the least-stressed hero below maximum absorbs; never beyond the"
        " maximum (no ability cards removed)",
        "assumed",
        "heroes absorbing hits",
        "'Once a hero has reached their maximum stress, they must remove 1 card' (cards not"
        " modelled)",
    )
    add(
        "krynn.empty_lines",
        "when both fighting lines are empty nothing is revealed",
        "assumed",
        "fights",
        "an attacking line needs units; the rulebook does not say",
    )
    add(
        "krynn.conflict_retry",
        "a retry is a new attempt: >= 1 action, 1 die per action and per discarded card",
        "derived",
        "conflicts",
        "'You start with 1 battle die' ... 'you may spend 1 or more actions to try again'",
    )
    return rows
