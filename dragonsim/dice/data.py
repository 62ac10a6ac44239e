"""Dragon Dice as data: dragon dice, unit dice, dragonkin dice, ready-made armies, rule values.

Every value carries its provenance (``printed`` in the seed ``shared/seeds/001_*.txt``,
``published`` from a cited public source, ``assumed`` where nothing decides) and its source.
Kernels never read this module's tables directly: :mod:`dragonsim.dice.api` turns them into
plain arrays, so a study can vary any of them.

Codes used by the kernels
-------------------------
Dragon die icons: :data:`D_BELLY` .. :data:`D_WING`. Colours: :data:`BLACK` .. :data:`RED`.
Unit die face kinds: :data:`F_ID` .. :data:`F_BREATH` (a face is a kind and a count; the ID
face's count is the unit's health).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import UserError, resolve_name
from ..rules.core import read_toml

SEED = "shared/seeds/001_908fc901c9fc9d5f.txt (Dragon Dice Dragon Rules 09/13/96)"
GAPS = "shared/RULES-GAPS.md, 'Dragon Dice: published data and assumed values'"
SRC_TEHILL = "dragondice.tehill.net, 'what about dragons'"
SRC_TSULLIVAN_DRAGONS = "tsullivan/dragon-dice test/snapshots/dragon_form_data.json"
SRC_TSULLIVAN_UNITS = "tsullivan/dragon-dice models/test/snapshots/unit_data.json"

# ---------------------------------------------------------------- dragon die icons
D_BELLY, D_BREATH, D_CLAW, D_JAWS, D_TAIL, D_TREASURE, D_WING = range(7)
DRAGON_ICONS = ("belly", "breath", "claw", "jaws", "tail", "treasure", "wing")

# ---------------------------------------------------------------- colours (breath)
BLACK, BLUE, GOLD, GREEN, RED = range(5)
COLOURS = ("black", "blue", "gold", "green", "red")
BREATHS = {
    "black": "Disease: all units in the target army are rolled; any that roll ID icons are "
    "killed and buried.",
    "blue": "Paralysis: the target army can only roll for saves until the beginning of the "
    "owning player's next turn.",
    "gold": "Turn to Stone: five units from the target army are killed unless they can "
    "generate save results, each rolled individually; the army's owner chooses the units.",
    "green": "Frost: all rolls made by the target army are halved (rounded down) until the "
    "beginning of the owning player's next turn.",
    "red": "Flame: five health-worth of units from the target army are killed and buried; "
    "the army's owner chooses which units are left.",
}

# ---------------------------------------------------------------- unit face kinds
F_ID, F_MELEE, F_MISSILE, F_MAGIC, F_MANEUVER, F_SAVE, F_BELLY, F_BREATH = range(8)
FACE_KINDS = ("id", "melee", "missile", "magic", "maneuver", "save", "belly", "breath")

# ---------------------------------------------------------------- option codes
#: how one roll's ID results are split between the attack on the dragon(s) and the saves
ID_SPLITS = ("slay-first", "save-first")
#: casualty-choice policies (the army's owner chooses casualties)
POLICIES = ("cheapest", "largest", "army-order", "kin-first")


@dataclass(frozen=True)
class DragonDie:
    """A 12-sided dragon die: a variant name, twelve icons, provenance and source."""

    variant: str
    faces: tuple[str, ...]
    provenance: str
    source: str

    def icon_codes(self) -> list[int]:
        return [DRAGON_ICONS.index(f) for f in self.faces]


def _faces(**counts: int) -> tuple[str, ...]:
    out: list[str] = []
    for icon, c in counts.items():
        out += [icon] * c
    return tuple(out)


#: The dragon dice (12 faces), published: two independent public sources agree.
DRAGON_DICE: dict[str, DragonDie] = {
    "wyrm": DragonDie(
        "wyrm",
        _faces(jaws=1, breath=1, claw=4, treasure=1, tail=3, belly=2),
        "published",
        f"{SRC_TEHILL}; {SRC_TSULLIVAN_DRAGONS} (via {GAPS})",
    ),
    "drake": DragonDie(
        "drake",
        _faces(jaws=1, breath=1, claw=4, wing=2, tail=2, belly=2),
        "published",
        f"{SRC_TEHILL}; {SRC_TSULLIVAN_DRAGONS} (via {GAPS})",
    ),
}


@dataclass(frozen=True)
class Dragon:
    """A dragon: a colour (its breath) and a die."""

    name: str
    colour: str
    die: DragonDie

    @property
    def colour_code(self) -> int:
        return COLOURS.index(self.colour)


def dragons() -> dict[str, Dragon]:
    """Every ready-made dragon, ``'<colour>-<variant>'`` (e.g. ``'red-wyrm'``)."""
    return {f"{c}-{v}": Dragon(f"{c}-{v}", c, d) for c in COLOURS for v, d in DRAGON_DICE.items()}


@dataclass(frozen=True)
class UnitDie:
    """A unit die: six faces, each ``(kind, count)``; the ID face's count is the health.

    Parameters
    ----------
    name
        Table name, e.g. ``'goblin-thug'``.
    race, health
        Race (promotion stays within it) and health (1 common, 2 uncommon, 3 rare).
    faces
        Six ``(kind, count)`` pairs, kinds from :data:`FACE_KINDS`.
    kin_colour
        ``None`` for a normal unit, a colour for a dragonkin die.
    promotes_to
        Name of the unit this one is traded for on promotion (same race, 1 health more);
        ``None`` when the table has none.
    """

    name: str
    race: str
    health: int
    faces: tuple[tuple[str, int], ...]
    provenance: str
    source: str
    kin_colour: str | None = None
    promotes_to: str | None = None

    @property
    def is_kin(self) -> bool:
        return self.kin_colour is not None

    def results(self) -> int:
        """Total results on the non-ID faces (the cheapest-first policy's tie-break)."""
        return sum(c for k, c in self.faces if k != "id")


_FACE_RE = re.compile(r"^\s*([a-zA-Z]+)\s*(\d+)?\s*$")


def parse_face(text: str, health: int, where: str) -> tuple[str, int]:
    """``'Melee 2'`` -> ``('melee', 2)``; ``'ID'`` -> ``('id', health)``."""
    m = _FACE_RE.match(str(text))
    if not m:
        raise UserError(
            f"{where}: bad face {text!r}; write a kind and a count such as 'Melee 2', or 'ID'"
            f" (kinds: {', '.join(FACE_KINDS)})"
        )
    kind = resolve_name(m.group(1), FACE_KINDS, f"face kind in {where}")
    if kind == "id":
        return ("id", health)
    if kind in ("belly", "breath"):
        return (kind, int(m.group(2) or 1))
    if m.group(2) is None:
        raise UserError(f"{where}: face {text!r} needs a count, e.g. '{kind.title()} 1'")
    return (kind, int(m.group(2)))


def _u(name, race, health, faces: str, prov="published", src=SRC_TSULLIVAN_UNITS, kin=None):
    fs = tuple(parse_face(f, health, name) for f in faces.split(","))
    return UnitDie(name, race, health, fs, prov, f"{src} (via {GAPS})", kin)


_PUBLISHED_UNITS = [
    _u("goblin-thug", "goblins", 1, "ID, Save 1, Melee 1, Maneuver 1, Melee 1, Melee 2"),
    _u("goblin-pelter", "goblins", 1, "ID, Save 1, Missile 1, Save 1, Missile 2, Maneuver 1"),
    _u("goblin-slingman", "goblins", 2, "ID, Melee 2, Missile 3, Maneuver 2, Missile 3, Save 2"),
    _u(
        "coral-elf-fighter",
        "coral elves",
        1,
        "ID, Melee 1, Missile 1, Melee 1, Maneuver 1, Melee 2",
    ),
    _u(
        "coral-elf-bowman",
        "coral elves",
        1,
        "ID, Missile 1, Melee 1, Missile 1, Maneuver 1, Missile 2",
    ),
    _u(
        "coral-elf-trooper", "coral elves", 2, "ID, Save 2, Melee 3, Maneuver 2, Melee 3, Missile 2"
    ),
    _u("dwarf-footman", "dwarves", 1, "ID, Save 1, Melee 1, Save 1, Melee 1, Melee 2"),
    _u("dwarf-crossbowman", "dwarves", 1, "ID, Melee 1, Missile 1, Save 1, Missile 1, Missile 2"),
    _u("dwarf-marksman", "dwarves", 2, "ID, Melee 3, Missile 2, Save 2, Missile 2, Missile 3"),
    _u("lava-elf-bladesman", "lava elves", 1, "ID, Save 1, Melee 1, Missile 1, Melee 1, Melee 2"),
    _u("lava-elf-duelist", "lava elves", 2, "ID, Save 2, Melee 4, Maneuver 2, Melee 2, Missile 2"),
]

_KIN_SRC = (
    "assumed die (RULES-GAPS.md): common Maneuver 1, Melee 1, Melee 1, Belly, Breath, Melee 2; "
    "uncommon and rare scale counts by health; ID-free as the seed lists only maneuver, melee, "
    "belly and breath icons"
)
_KIN_SIZES = {"common": 1, "uncommon": 2, "rare": 3}


def _kin(colour: str, size: str) -> UnitDie:
    h = _KIN_SIZES[size]
    faces = (
        ("maneuver", h),
        ("melee", h),
        ("melee", h),
        ("belly", 1),
        ("breath", 1),
        ("melee", 2 * h),
    )
    return UnitDie(
        f"{colour}-dragonkin-{size}", f"{colour} dragonkin", h, faces, "assumed", _KIN_SRC, colour
    )


def _with_promotions(table: dict[str, UnitDie]) -> dict[str, UnitDie]:
    """Set ``promotes_to``: the first unit of the same race worth 1 health more."""
    out = {}
    for name, u in table.items():
        if u.promotes_to is None and not u.is_kin:
            up = next(
                (
                    v.name
                    for v in table.values()
                    if v.race == u.race and v.health == u.health + 1 and not v.is_kin
                ),
                None,
            )
            u = UnitDie(u.name, u.race, u.health, u.faces, u.provenance, u.source, u.kin_colour, up)
        out[name] = u
    return out


def units() -> dict[str, UnitDie]:
    """The shipped unit table: published example units and assumed dragonkin dice."""
    table = {u.name: u for u in _PUBLISHED_UNITS}
    for c in COLOURS:
        for s in _KIN_SIZES:
            k = _kin(c, s)
            table[k.name] = k
    return _with_promotions(table)


#: Ready-made armies (unit name -> count), built from the published example units.
ARMIES: dict[str, dict[str, int]] = {
    "goblin-horde": {"goblin-thug": 6, "goblin-pelter": 4},
    "goblin-warband": {"goblin-thug": 4, "goblin-pelter": 4, "goblin-slingman": 2},
    "coral-elf-patrol": {"coral-elf-fighter": 4, "coral-elf-bowman": 4, "coral-elf-trooper": 2},
    "dwarf-guard": {"dwarf-footman": 5, "dwarf-crossbowman": 3, "dwarf-marksman": 2},
    "lava-elf-band": {"lava-elf-bladesman": 6, "lava-elf-duelist": 2},
}


# ---------------------------------------------------------------- rule values
@dataclass(frozen=True)
class RuleValue:
    key: str
    value: Any
    provenance: str
    source: str
    used_in: str
    #: how a user overrides it (keyword / TOML [options] key, command-line flag); "" = fixed
    override: str = ""


#: Numbers the kernels take as arguments (a study may vary any of them).
RULE_VALUES: dict[str, RuleValue] = {
    r.key: r
    for r in [
        RuleValue(
            "dice.claw_damage",
            5,
            "printed",
            "Claws: A dragon's claws inflict 5 points of damage on an army.",
            "kernel",
            override="claw_damage (keyword, TOML [options])",
        ),
        RuleValue(
            "dice.jaws_damage",
            10,
            "printed",
            "Jaws: A dragon's jaws inflict 10 points of damage on an army.",
            "kernel",
            override="jaws_damage (keyword, TOML [options])",
        ),
        RuleValue(
            "dice.tail_damage",
            3,
            "printed",
            "Tail: The dragon's tail inflicts 3 points of damage on an army. Furthermore, the"
            " dragon immediately rolls again",
            "kernel",
            override="tail_damage (keyword, TOML [options])",
        ),
        RuleValue(
            "dice.dragon_health",
            5,
            "printed",
            "Each dragon has 5 health and 5 automatic saves",
            "kernel",
            override="dragon_health (keyword, TOML [options])",
        ),
        RuleValue(
            "dice.dragon_saves",
            5,
            "printed",
            "Each dragon has 5 health and 5 automatic saves (except when its belly icon comes up)",
            "kernel",
            override="dragon_saves (keyword, TOML [options])",
        ),
        RuleValue(
            "dice.flame_health",
            5,
            "printed",
            "Red -- Flame: Five health-worth of units from the target army are killed and buried.",
            "kernel (red breath)",
            override="flame_health (keyword, TOML [options])",
        ),
        RuleValue(
            "dice.stone_units",
            5,
            "printed",
            "Gold -- Turn to Stone: Five units from the target army are killed unless they can"
            " generate save results.",
            "kernel (gold breath)",
            override="stone_units (keyword, TOML [options])",
        ),
        RuleValue(
            "dice.id_split",
            "slay-first",
            "assumed",
            "The seed: 'ID icons can be used as melee, missile, or save results as the army's"
            " owner desires' without saying how one roll is split. slay-first: ID goes to the"
            " attack only when it completes a slaying (as many dragons as possible, fewest ID),"
            " the rest to saves; save-first: ID first covers the dragon's damage.",
            "kernel option id_split",
            override="id_split (keyword, TOML [options], --id-split)",
        ),
        RuleValue(
            "dice.casualty_policy",
            "cheapest",
            "assumed",
            "RULES-GAPS.md: casualties are chosen by the army's owner; the default kills the"
            " cheapest units first (least health, then fewest results). Also used for which"
            " units gold breath targets and which units red flame takes.",
            "casualty order",
            override="policy (keyword, TOML [options], --policy); a list of unit names also works",
        ),
        RuleValue(
            "dice.partial_damage",
            "lost",
            "assumed",
            "Damage smaller than the health of every remaining unit kills nothing (a unit"
            " dies only when the damage left covers its whole health).",
            "kernel",
            override="partial_damage = 'lost' | 'round-up' (keyword, TOML [options],"
            " --partial-damage)",
        ),
        RuleValue(
            "dice.damage_carries",
            0,
            "assumed",
            "Damage to a dragon does not carry over to the next attack: the seed counts it per"
            " attack ('it takes a total of 10 damage to slay a dragon (or only 5 when it rolls"
            " a belly icon)'), and belly is per roll. 1 = damage accumulates.",
            "kernel option damage_carries",
            override="damage_carries (keyword, TOML [options], --damage-carries)",
        ),
        RuleValue(
            "dice.promotion_supply",
            "unlimited",
            "assumed",
            "Promotion trades a unit for a dead unit of the same race worth 1 health more; the"
            " dead unit area is outside the simulation, so by default it always holds one."
            " 'dead-area': only units killed (not buried) in the simulation plus a given"
            " starting dead area.",
            "kernel option promotion_supply",
            override="promotion_supply = 'unlimited' | 'dead-area' (keyword, TOML"
            " [options], --promotion-supply); dead_area= gives the starting"
            " dead area",
        ),
        RuleValue(
            "dice.promotion_rounds",
            "one-per-dragon-slain",
            "assumed",
            "'If an army slays a dragon, it may promote as many units as possible': when one"
            " roll slays several dragons, each slaying grants its own round of simultaneous"
            " promotions.",
            "army kernel",
            override="promotion_rounds = 'per-dragon' | 'once' (keyword, TOML [options],"
            " --promotion-rounds)",
        ),
        RuleValue(
            "dice.promotion_order",
            "slaying-then-treasure",
            "assumed",
            "When a dragon is slain on a treasure roll, the slaying promotions (all at once)"
            " come first, then the treasure promotion; treasure promotes the first promotable"
            " unit in army order.",
            "kernel",
        ),
        RuleValue(
            "dice.frost_halving",
            "per-result-type",
            "assumed",
            "Green frost halves each result type of the roll (melee, missile, save, ID)"
            " rounded down before ID is allocated; dragonkin armor (automatic, not rolled) is"
            " not halved.",
            "kernel",
        ),
        RuleValue(
            "dice.breath_duration",
            "current-attack",
            "assumed",
            "Blue and green effects last 'until the beginning of the owning player's next"
            " turn', which is before the army's next dragon attack in a two-player game, so"
            " they affect only the current attack.",
            "kernel",
        ),
        RuleValue(
            "dice.kin_in_dragon_attack",
            "melee-and-saves",
            "assumed",
            "Dragonkin of another colour are rolled in the army's response: their melee counts"
            " when the army uses melee (never missile: 'not included in any rolls for"
            " missile'), their saves and armor always; their breath icons have no effect on a"
            " dragon (breath acts on a target army).",
            "kernel",
        ),
        RuleValue(
            "dice.kin_removed_counts_as_lost",
            1,
            "assumed",
            "Dragonkin removed because no other units remain count in the health lost.",
            "health-lost counter",
        ),
        RuleValue(
            "dice.stone_same_colour_kin",
            "targeted-last",
            "assumed",
            "Same-colour dragonkin are not rolled during a dragon attack, so gold breath"
            " targets them last; a targeted one is killed.",
            "gold targeting order",
        ),
        RuleValue(
            "dice.dvd_targeting",
            "focus",
            "assumed",
            "Dragons of one colour team up on one enemy: the first present enemy whose saves"
            " are negated, else the first present enemy.",
            "dragon-vs-dragon kernel",
        ),
        RuleValue(
            "dice.breath_negation_rounds",
            2,
            "assumed",
            "Breath negates the target's saves 'until the end of the acting player's next"
            " turn': the round it is rolled and, in a two-player game, the next 2 rounds.",
            "dragon-vs-dragon kernel",
            override="breath_negation_rounds (keyword, TOML [options], duel --negation-rounds)",
        ),
        RuleValue(
            "dice.dragonkin_faces",
            "see units()",
            "assumed",
            _KIN_SRC,
            "unit table",
            override="[units.*] with kin_colour in an army file, or make_unit(kin_colour=...)",
        ),
        RuleValue(
            "dice.attack_timing",
            "one-per-army-turn",
            "assumed",
            "'Combat with a dragon happens at the start of each player's turn' and 'the"
            " acting player rolls his army': a multi-turn game is one attack per turn of the"
            " army's owner (the dragon attacks the acting player's army).",
            "army kernel",
        ),
        RuleValue(
            "dice.melee_sequence",
            "attack-save-counter",
            "assumed",
            "Melee (for dragonkin breath) follows the usual sequence, which the seed does not"
            " print: the attacker rolls melee (ID as melee), breaths act at once, the defender"
            " rolls saves (ID as saves, armor), damage kills whole units, then the"
            " defender's survivors counter-attack the same way. Breath targets are chosen by"
            " the casualty policy; a unit under several effects takes them on the same die.",
            "melee kernel",
            override="counter_attack (melee keyword, --no-counter); black_needs_id",
        ),
        RuleValue(
            "dice.dragons_per_health",
            25,
            "printed",
            "You must bring 1 dragon to any battle, plus one additional dragon for each 25"
            " health in your armies.",
            "dragons_required()",
        ),
        RuleValue(
            "dice.dragonkin_per_points",
            3,
            "printed",
            "For every full 3 points of other units a player brings to a game, he is allowed"
            " (but not required) to bring one point of dragonkin.",
            "dragonkin_allowance()",
        ),
    ]
}


def dragons_required(total_health: int) -> int:
    """Dragons a player must bring: 'You must bring 1 dragon to any battle, plus one
    additional dragon for each 25 health in your armies.'

    >>> dragons_required(24), dragons_required(25), dragons_required(60)
    (1, 2, 3)
    """
    if total_health < 0:
        raise UserError(f"total health must be >= 0, got {total_health}")
    return 1 + total_health // 25


def dragonkin_allowance(other_points: int) -> int:
    """Points of dragonkin a player may bring: 'For every full 3 points of other units ...
    one point of dragonkin.'

    >>> dragonkin_allowance(8), dragonkin_allowance(9)
    (2, 3)
    """
    if other_points < 0:
        raise UserError(f"points must be >= 0, got {other_points}")
    return other_points // 3


def assumed() -> list[dict[str, Any]]:
    """Every assumed Dragon Dice value: rows of key, value, provenance, source, used_in.

    >>> rows = assumed()
    >>> {r["provenance"] for r in rows}
    {'assumed'}
    """
    return [
        {
            "key": r.key,
            "value": r.value,
            "provenance": r.provenance,
            "source": r.source,
            "used_in": r.used_in,
            "override": r.override or "fixed (an interpretation, see source)",
        }
        for r in RULE_VALUES.values()
        if r.provenance == "assumed"
    ]


def rule_values() -> list[dict[str, Any]]:
    """Every Dragon Dice rule value (printed, published and assumed) as rows."""
    return [
        {
            "key": r.key,
            "value": r.value,
            "provenance": r.provenance,
            "source": r.source,
            "used_in": r.used_in,
            "override": r.override,
        }
        for r in RULE_VALUES.values()
    ]


# ---------------------------------------------------------------- user data (TOML / Python)
@dataclass
class Catalog:
    """Units, dragons and armies known to a call: the shipped tables plus a user's."""

    units: dict[str, UnitDie] = field(default_factory=units)
    dragons: dict[str, Dragon] = field(default_factory=dragons)
    armies: dict[str, dict[str, int]] = field(default_factory=lambda: dict(ARMIES))
    #: rule values and options from a file's ``[options]`` table (keyword arguments win)
    options: dict[str, Any] = field(default_factory=dict)

    def unit(self, name: str) -> UnitDie:
        return self.units[resolve_name(name, self.units, "unit")]

    def dragon(self, name: str) -> Dragon:
        return self.dragons[resolve_name(name, self.dragons, "dragon")]


def make_unit(
    name: str,
    *,
    race: str,
    health: int,
    faces: Sequence[str],
    kin_colour: str | None = None,
    promotes_to: str | None = None,
    source: str = "user",
) -> UnitDie:
    """A user's unit die from face strings such as ``'Melee 2'`` and ``'ID'``.

    >>> make_unit("orc", race="orcs", health=1, faces=["ID"] * 6).faces[0]
    ('id', 1)
    """
    if not isinstance(health, int) or not 1 <= health <= 4:
        raise UserError(f"unit {name!r}: health must be a whole number 1..4, got {health!r}")
    if len(faces) != 6:
        raise UserError(f"unit {name!r}: a unit die has 6 faces, got {len(faces)}")
    fs = tuple(parse_face(f, health, f"unit {name!r}") for f in faces)
    for _k, c in fs:
        if not 0 <= c <= 20:
            raise UserError(f"unit {name!r}: face counts must be 0..20, got {c}")
    if kin_colour is not None:
        kin_colour = resolve_name(kin_colour, COLOURS, "dragonkin colour")
    return UnitDie(name, race, health, fs, "user", source, kin_colour, promotes_to)


def make_dragon(
    name: str, *, colour: str, faces: Sequence[str], variant: str = "custom", source: str = "user"
) -> Dragon:
    """A user's dragon from 12 icon names.

    >>> make_dragon("claws", colour="red", faces=["claw"] * 12).die.faces[0]
    'claw'
    """
    colour = resolve_name(colour, COLOURS, "dragon colour")
    if len(faces) != 12:
        raise UserError(f"dragon {name!r}: a dragon die has 12 faces, got {len(faces)}")
    fs = tuple(resolve_name(f, DRAGON_ICONS, f"icon of dragon {name!r}") for f in faces)
    if all(f == "tail" for f in fs):
        raise UserError(
            f"dragon {name!r}: at least one face must not be a tail "
            "(a tail rolls again until something else comes up)"
        )
    return Dragon(name, colour, DragonDie(variant, fs, "user", source))


def load_toml(path: str | Path, catalog: Catalog | None = None) -> Catalog:
    """Add a user's units, dragons and armies from a TOML file to a catalog.

    The file may hold::

        [units.orc-brute]
        race = "orcs"
        health = 2
        faces = ["ID", "Melee 3", "Melee 2", "Save 1", "Maneuver 2", "Missile 1"]
        # kin_colour = "red"      (a dragonkin die)
        # promotes_to = "orc-chief"

        [dragons.big-red]
        colour = "red"
        faces = ["claw", "claw", "claw", "claw", "jaws", "breath", "tail", "tail", "tail",
                 "belly", "belly", "treasure"]

        [armies.orc-horde]
        orc-brute = 4
        goblin-thug = 3

        [options]            # any field of dragonsim.dice.api.Options
        id_split = "save-first"
        claw_damage = 6
    """
    cat = catalog or Catalog()
    p = Path(path)
    data = read_toml(p, "army file")
    unknown = set(data) - {"units", "dragons", "armies", "options"}
    if unknown:
        raise UserError(
            f"army file {str(p)!r}: unknown table(s) {sorted(unknown)}; "
            "allowed: units, dragons, armies, options"
        )
    if not isinstance(data.get("options", {}), Mapping):
        raise UserError(f"army file {str(p)!r}: [options] must be a table")
    cat.options.update(data.get("options", {}))
    src = f"user file {p.name}"
    for name, spec in data.get("units", {}).items():
        _need(spec, ("race", "health", "faces"), f"unit {name!r}")
        cat.units[name] = make_unit(
            name,
            race=spec["race"],
            health=spec["health"],
            faces=spec["faces"],
            kin_colour=spec.get("kin_colour"),
            promotes_to=spec.get("promotes_to"),
            source=src,
        )
    cat.units = _with_promotions(cat.units)
    for name, spec in data.get("dragons", {}).items():
        _need(spec, ("colour", "faces"), f"dragon {name!r}")
        cat.dragons[name] = make_dragon(
            name, colour=spec["colour"], faces=spec["faces"], source=src
        )
    for name, spec in data.get("armies", {}).items():
        if not isinstance(spec, Mapping) or not spec:
            raise UserError(f"army {name!r}: give unit = count pairs")
        cat.armies[name] = {
            cat.unit(u).name: _count(c, f"army {name!r}, unit {u!r}") for u, c in spec.items()
        }
    return cat


def _need(spec: Any, keys: Sequence[str], where: str) -> None:
    if not isinstance(spec, Mapping):
        raise UserError(f"{where}: expected a table with {', '.join(keys)}")
    missing = [k for k in keys if k not in spec]
    if missing:
        raise UserError(f"{where}: missing {', '.join(missing)}")


def _count(c: Any, where: str) -> int:
    if isinstance(c, bool) or not isinstance(c, int) or c < 1:
        raise UserError(f"{where}: count must be a whole number >= 1, got {c!r}")
    if c > 500:
        raise UserError(f"{where}: count must be at most 500, got {c!r}")
    return c


def parse_army(spec: str | Mapping[str, int], catalog: Catalog | None = None) -> dict[str, int]:
    """An army from ``'goblin-thug:6,goblin-pelter:4'``, a ready-made army name or a mapping.

    >>> parse_army("goblin-thug:6, goblin-pelter:4")
    {'goblin-thug': 6, 'goblin-pelter': 4}
    >>> parse_army("goblin-horde")
    {'goblin-thug': 6, 'goblin-pelter': 4}
    """
    cat = catalog or Catalog()
    if isinstance(spec, Mapping):
        items = [(str(k), v) for k, v in spec.items()]
    else:
        text = str(spec).strip()
        if not text:
            raise UserError(
                "empty army; write UNIT:COUNT[,UNIT:COUNT...] or an army name "
                f"({', '.join(cat.armies)})"
            )
        if ":" not in text and "," not in text:
            name = resolve_name(text, list(cat.armies) + list(cat.units), "army or unit")
            if name in cat.armies:
                return dict(cat.armies[name])
            return {name: 1}
        items = []
        for part in text.split(","):
            part = part.strip()
            if not part:
                continue
            name, sep, cnt = part.partition(":")
            if not sep:
                cnt = "1"
            try:
                c = int(cnt.strip())
            except ValueError:
                raise UserError(
                    f"bad army entry {part!r}: the count after ':' must be a whole "
                    "number, e.g. goblin-thug:6"
                ) from None
            items.append((name.strip(), c))
    out: dict[str, int] = {}
    for name, c in items:
        u = cat.unit(name).name
        out[u] = out.get(u, 0) + _count(c, f"army entry {name!r}")
    if out and all(cat.units[u].is_kin for u in out):
        raise UserError(
            "an army cannot consist solely of dragonkin (seed: 'Any army cannot "
            "consist solely of dragonkin'); add other units"
        )
    return out
