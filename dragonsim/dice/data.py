"""Dragon Dice as data: dragon dice, unit dice, dragonkin dice, ready-made armies.

Every die carries its provenance (``published`` from a cited public source, ``assumed`` where
nothing decides, ``user`` for a user's own) and its source. The rule values and readings live
in :mod:`dragonsim.rules.dice` (one registry, ``dragonsim.rules.dice_rules()``);
:func:`assumed` and :func:`rule_values` are views of it. Kernels never read this module's
tables directly: :mod:`dragonsim.dice.api` turns them into plain arrays, so a study can vary
any of them.

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
from ..rules.dice import ID_SPLITS as ID_SPLITS  # the choices live with the rules
from ..rules.dice import POLICIES as POLICIES
from ..rules.dice import RULES

SEED = "Dragon Dice Dragon Rules (09/13/96)"
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
        f"{SRC_TEHILL}; {SRC_TSULLIVAN_DRAGONS} (two public sources that agree)",
    ),
    "drake": DragonDie(
        "drake",
        _faces(jaws=1, breath=1, claw=4, wing=2, tail=2, belly=2),
        "published",
        f"{SRC_TEHILL}; {SRC_TSULLIVAN_DRAGONS} (two public sources that agree)",
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
    return UnitDie(name, race, health, fs, prov, f"{src} (a public example unit table)", kin)


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

_KIN_SRC = RULES["dice.dragonkin_faces"].source
_KIN_SIZES = {"common": 1, "uncommon": 2, "rare": 3}


def _kin(colour: str, size: str, common_faces: Sequence[str] | None = None) -> UnitDie:
    """The shipped dragonkin die of ``colour`` and ``size``: the common die's faces
    (``dice.dragonkin_faces``), every count times the health (belly and breath stay 1)."""
    h = _KIN_SIZES[size]
    common = RULES["dice.dragonkin_faces"].value if common_faces is None else common_faces
    faces = []
    for text in common:
        kind, count = parse_face(text, 1, "dice.dragonkin_faces")
        faces.append((kind, count if kind in ("belly", "breath") else count * h))
    return UnitDie(
        f"{colour}-dragonkin-{size}",
        f"{colour} dragonkin",
        h,
        tuple(faces),
        "assumed",
        _KIN_SRC,
        colour,
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


def units(kin_faces: Sequence[str] | None = None) -> dict[str, UnitDie]:
    """The shipped unit table: published example units and assumed dragonkin dice (their
    common die ``kin_faces``, default the rule ``dice.dragonkin_faces``)."""
    table = {u.name: u for u in _PUBLISHED_UNITS}
    for c in COLOURS:
        for s in _KIN_SIZES:
            k = _kin(c, s, kin_faces)
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


def dragons_required(total_health: int) -> int:
    """Dragons a player must bring: 'You must bring 1 dragon to any battle, plus one
    additional dragon for each 25 health in your armies.'

    >>> dragons_required(24), dragons_required(25), dragons_required(60)
    (1, 2, 3)
    """
    if total_health < 0:
        raise UserError(f"total health must be >= 0, got {total_health}")
    return 1 + total_health // RULES["dice.dragons_per_health"].value


def dragonkin_allowance(other_points: int) -> int:
    """Points of dragonkin a player may bring: 'For every full 3 points of other units ...
    one point of dragonkin.'

    >>> dragonkin_allowance(8), dragonkin_allowance(9)
    (2, 3)
    """
    if other_points < 0:
        raise UserError(f"points must be >= 0, got {other_points}")
    return other_points // RULES["dice.dragonkin_per_points"].value


def _override_text(key: str) -> str:
    name = key.partition(".")[2]
    return (
        f"{name} (keyword, army file [options], rules file [dice])"
        if key in _API_RULES
        else f"{name} (rules file [dice], rules= of the API)"
    )


#: rules the API takes as keywords (every rule the kernels read)
_API_RULES = frozenset(
    k for k in RULES if k not in ("dice.dragons_per_health", "dice.dragonkin_per_points")
)


def rule_values(rules=None) -> list[dict[str, Any]]:
    """Every Dragon Dice rule (printed, derived, assumed) as rows of key, value, provenance,
    source, used_in and override: a view of :mod:`dragonsim.rules.dice` (``rules``: a
    RuleSet, for the values in force)."""
    from ..rules import rows_of

    rows = rows_of(rules if rules is not None else RULES.values())
    for r in rows:
        r["override"] = _override_text(r["key"])
    return rows


def assumed(rules=None) -> list[dict[str, Any]]:
    """Every assumed Dragon Dice value: rows of key, value, provenance, source, used_in,
    override (a view of the registry, see :func:`rule_values`).

    >>> rows = assumed()
    >>> {r["provenance"] for r in rows}
    {'assumed'}

    A value a rules file overrides keeps its row, with provenance ``"override"`` and the
    shipped value as ``default``.
    """
    return [
        r for r in rule_values(rules) if r.get("default_provenance", r["provenance"]) == "assumed"
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

    def under(self, rules) -> Catalog:
        """This catalog with the shipped dragonkin dice as ``rules`` (a RuleSet) has them
        (``dice.dragonkin_faces``); units a user defined are kept as they are."""
        faces = rules.get("dice.dragonkin_faces")
        if list(faces) == list(RULES["dice.dragonkin_faces"].value):
            return self
        shipped = units()
        remade = units(faces)
        table = dict(self.units)
        for name, u in shipped.items():
            if u.is_kin and table.get(name) == u:
                table[name] = remade[name]
        return Catalog(table, self.dragons, self.armies, self.options)


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

        [options]            # any Dragon Dice rule by name (dragonsim.rules.dice)
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

    Each unit once (a second entry of a unit, under any spelling, is refused rather than
    added up) and no empty entry (``'goblin-thug:1,,'``): a slip in the list is one line, not
    another army.

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
                raise UserError(
                    f"army {text!r} has an empty entry (two commas, or one at an end); write "
                    "UNIT:COUNT[,UNIT:COUNT...], e.g. goblin-thug:6,goblin-pelter:4"
                )
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
        c = _count(c, f"army entry {name!r}")
        if u in out:
            raise UserError(
                f"army: unit {u!r} given twice; give each unit once with its count, e.g. "
                f"{u}:{out[u] + c}"
            )
        out[u] = c
    if out and all(cat.units[u].is_kin for u in out):
        raise UserError(
            "an army cannot consist solely of dragonkin (seed: 'Any army cannot "
            "consist solely of dragonkin'); add other units"
        )
    return out
