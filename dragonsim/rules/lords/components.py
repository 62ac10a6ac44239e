"""Dragon Lords components and ready-made dragons (the Dragon Lords rulebook, Grenadier): the
names of the bodies, wings, breaths, claws, riders, maneuverability ratings, body parts,
directions, altitudes, tactics and spells, in the rulebook's "steps" (p.26: index 0 is the
weakest), the twelve ready-made dragons (pp. 30-35) and the team games' pairings.
"""

from __future__ import annotations

BODIES = ("Very Light", "Light", "Average", "Heavy", "Very Heavy")
WINGS = ("Tiny", "Small", "Medium", "Large", "Huge")
BREATHS = ("Cold", "Lightning", "Flame", "Ice", "Magma")
CLAWS = ("Blunt", "Dull", "Sharp", "Jagged", "Razor Sharp")
RIDERS = ("None", "Lancer", "Javelin Thrower", "Archer", "Crossbow Shooter", "Wizard")
MRS = tuple("ABCDEFGHI")
PARTS = ("head", "body", "tail", "left_wing", "right_wing")
PART_CODES = ("H", "B", "T", "LW", "RW")
DIRECTIONS = ("F", "FR", "RR", "R", "RL", "FL")
ALTITUDES = ("Ground", "Very Low", "Low", "Medium", "High", "Very High")
TACTICS = ("Lunge", "Slash", "Bite", "Tail Swing", "Fake", "Defend")
SPELLS = (
    "Distort Range",
    "Dull",
    "Fireball",
    "Force Shield",
    "Heal",
    "Lethargy",
    "Lightning Bolt",
    "Quicken",
    "Saddlesore",
    "Sharpen",
    "Slow",
    "Spin",
    "Vigor",
)

#: Stalwyrm's wings are printed "Very Large", a size the rulebook does not have; its printed
#: MR E and maximum speed 15 force Huge (the Maneuverability and Speed Table, p.27).
ROSTER: dict[str, dict] = {
    "Lectronist": dict(
        body="Heavy",
        wings="Large",
        breath="Lightning",
        claws="Dull",
        rider="None",
        page=30,
        cost=12,
        mr="E",
        cc=5,
        min_speed=4,
        max_speed=14,
    ),
    "Kelvinight": dict(
        body="Light",
        wings="Medium",
        breath="Ice",
        claws="Sharp",
        rider="None",
        page=30,
        cost=12,
        mr="D",
        cc=6,
        min_speed=2,
        max_speed=13,
    ),
    "Zippinchill": dict(
        body="Very Light",
        wings="Huge",
        breath="Cold",
        claws="Sharp",
        rider="None",
        page=31,
        cost=10,
        mr="A",
        cc=9,
        min_speed=1,
        max_speed=15,
    ),
    "Thilindis": dict(
        body="Heavy",
        wings="Large",
        breath="Ice",
        claws="Jagged",
        rider="None",
        page=31,
        cost=16,
        mr="E",
        cc=5,
        min_speed=4,
        max_speed=14,
    ),
    "Reaper": dict(
        body="Very Heavy",
        wings="Huge",
        breath="Magma",
        claws="Razor Sharp",
        rider="None",
        page=32,
        cost=20,
        mr="E",
        cc=5,
        min_speed=5,
        max_speed=15,
    ),
    "Skyblazer": dict(
        body="Average",
        wings="Huge",
        breath="Magma",
        claws="Razor Sharp",
        rider="None",
        page=32,
        cost=18,
        mr="C",
        cc=7,
        min_speed=3,
        max_speed=15,
    ),
    "Slash": dict(
        body="Average",
        wings="Medium",
        breath="Flame",
        claws="Blunt",
        rider="Wizard",
        page=33,
        cost=15,
        mr="E",
        cc=5,
        min_speed=3,
        max_speed=13,
    ),
    "Blowderby": dict(
        body="Very Heavy",
        wings="Small",
        breath="Magma",
        claws="Blunt",
        rider="Javelin Thrower",
        page=33,
        cost=15,
        mr="H",
        cc=2,
        min_speed=5,
        max_speed=12,
    ),
    "Tankerous": dict(
        body="Very Heavy",
        wings="Tiny",
        breath="Cold",
        claws="Jagged",
        rider="Lancer",
        page=34,
        cost=12,
        mr="I",
        cc=9,
        min_speed=5,
        max_speed=11,
    ),
    "Fiercival": dict(
        body="Heavy",
        wings="Small",
        breath="Magma",
        claws="Dull",
        rider="Archer",
        page=34,
        cost=16,
        mr="G",
        cc=3,
        min_speed=4,
        max_speed=12,
    ),
    "Ozonic": dict(
        body="Very Heavy",
        wings="Medium",
        breath="Flame",
        claws="Sharp",
        rider="Crossbow Shooter",
        page=35,
        cost=18,
        mr="G",
        cc=3,
        min_speed=5,
        max_speed=13,
    ),
    "Stalwyrm": dict(
        body="Very Heavy",
        wings="Huge",
        breath="Ice",
        claws="Razor Sharp",
        rider="Wizard",
        page=35,
        cost=24,
        mr="E",
        cc=5,
        min_speed=5,
        max_speed=15,
    ),
}

#: Team-game pairings for odd numbers of players (basic p.14, advanced p.23), by name.
TEAM_PAIRINGS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "basic-3": (("Zippinchill", "Zippinchill"), ("Reaper",)),
    "basic-5": (("Lectronist", "Lectronist", "Lectronist"), ("Skyblazer", "Skyblazer")),
    "basic-7": (("Lectronist",) * 4, ("Thilindis",) * 3),
    "advanced-3": (("Tankerous", "Tankerous"), ("Stalwyrm",)),
    "advanced-5": (("Zippinchill",) * 3, ("Slash", "Slash")),
    "advanced-5b": (("Tankerous",) * 3, ("Ozonic", "Ozonic")),
    "advanced-7": (("Tankerous",) * 4, ("Fiercival",) * 3),
}
