"""Dragon Dice rules as data: every value and reading the Dice kernels use.

The rule text is the Dragon Dice Dragon Rules (09/13/96) by Stephen D'Angelo, whose sections
are 'Dragon Rules: Basics', 'Dragon Attack', 'Action Icons', 'Breath Weapons', 'Dragon vs.
Dragon' and 'Dragonkin Rules' (with its own 'Basics', 'Action Icons' and 'Breath Weapons').
Each rule is tagged

- ``printed``: a number or sentence of those rules (quoted in the rule's ``source``),
- ``derived``: forced by printed sentences (the reasoning is in ``source``),
- ``assumed``: dragonsim's reading where the rules do not decide; every assumed rule has a
  second legal value that the kernels implement, so a study can measure what the choice is
  worth. Where a sentence reads two ways, both readings are choices and ``source`` says which
  is the default and why.

The die faces are catalog data, not rules: the dragon dice (published, two public sources
agree) and unit dice sit in :mod:`dragonsim.dice.data` with their provenance, and a study
varies them by defining its own dice (``[units.*]`` / ``[dragons.*]`` in an army file).

Keys are ``dice.<name>``; an API keyword or an army file's ``[options]`` key is the name
without ``dice.`` (``attack(..., id_split="save-first")``), a rules file's ``[dice]`` table
holds the same names, and ``dragonsim.rules.dice_rules()`` gives the rules in force.
"""

from __future__ import annotations

from .core import Rule

DOC = "Dragon Dice Dragon Rules (09/13/96)"
ATTACK = f"{DOC}, 'Dragon Attack'"
ICONS = f"{DOC}, 'Action Icons'"
BREATH = f"{DOC}, 'Breath Weapons'"
DVD = f"{DOC}, 'Dragon vs. Dragon'"
KIN = f"{DOC}, 'Dragonkin Rules'"
BASICS = f"{DOC}, 'Dragon Rules: Basics'"

#: how one roll's ID results are split between the attack on the dragon(s) and the saves
ID_SPLITS = ("slay-first", "save-first")
#: casualty-choice policies (the army's owner chooses casualties)
POLICIES = ("cheapest", "largest", "army-order", "kin-first")

#: the assumed faces of a common (1-health) dragonkin die (``dice.dragonkin_faces``)
DRAGONKIN_FACES = ("Maneuver 1", "Melee 1", "Melee 1", "Belly", "Breath", "Melee 2")
#: the icons a dragonkin face may show ('Dragonkin Rules', 'Action Icons'; saves for studies)
DRAGONKIN_ICONS = ("maneuver", "melee", "belly", "breath", "save")


def _kin_faces_ok(faces) -> str | None:
    """What is wrong with a dragonkin die's faces, or None."""
    import re

    for f in faces:
        m = re.fullmatch(r"\s*([A-Za-z]+)\s*(\d+)?\s*", str(f))
        if not m or m.group(1).lower() not in DRAGONKIN_ICONS:
            return (
                f"bad dragonkin face {f!r}; write an icon and a count such as 'Melee 2' or "
                f"'Belly' (icons: {', '.join(DRAGONKIN_ICONS)})"
            )
        if m.group(1).lower() in ("maneuver", "melee", "save") and m.group(2) is None:
            return f"dragonkin face {f!r} needs a count, e.g. '{m.group(1).title()} 1'"
        if m.group(2) is not None and not 0 <= int(m.group(2)) <= 20:
            return f"dragonkin face {f!r}: counts are 0..20"
    return None


_P = "printed"
_D = "derived"
_A = "assumed"


def _rules() -> list[Rule]:
    R = Rule
    return [
        # ------------------------------------------------------------ printed numbers
        R(
            "dice.claw_damage",
            5,
            _P,
            f'{ICONS}: "Claws: A dragon\'s claws inflict 5 points of damage on an army."',
            "dragon roll (army and dragon-vs-dragon kernels, exact odds)",
            bounds=(0, 100),
        ),
        R(
            "dice.jaws_damage",
            10,
            _P,
            f'{ICONS}: "Jaws: A dragon\'s jaws inflict 10 points of damage on an army."',
            "dragon roll (army and dragon-vs-dragon kernels, exact odds)",
            bounds=(0, 100),
        ),
        R(
            "dice.tail_damage",
            3,
            _P,
            f"{ICONS}: \"Tail: The dragon's tail inflicts 3 points of damage on an army. "
            'Furthermore, the dragon immediately rolls again, applying the new results."',
            "dragon roll (army and dragon-vs-dragon kernels, exact odds)",
            bounds=(0, 100),
        ),
        R(
            "dice.dragon_health",
            5,
            _P,
            f'{ATTACK}: "Each dragon has 5 health and 5 automatic saves (except when its belly '
            'icon comes up)."',
            "slaying threshold (army and dragon-vs-dragon kernels, exact odds)",
            bounds=(1, 100),
        ),
        R(
            "dice.dragon_saves",
            5,
            _P,
            f'{ATTACK}: "Each dragon has 5 health and 5 automatic saves (except when its belly '
            "icon comes up). Therefore it takes a total of 10 damage to slay a dragon (or only 5 "
            'when it rolls a belly icon)."',
            "slaying threshold (army and dragon-vs-dragon kernels, exact odds)",
            bounds=(0, 100),
        ),
        R(
            "dice.flame_health",
            5,
            _P,
            f'{BREATH}: "Red -- Flame: Five health-worth of units from the target army are '
            'killed and buried."',
            "red breath (army kernel, exact odds)",
            bounds=(0, 100),
        ),
        R(
            "dice.stone_units",
            5,
            _P,
            f'{BREATH}: "Gold -- Turn to Stone: Five units from the target army are killed '
            'unless they can generate save results."',
            "gold breath (army kernel, exact odds)",
            bounds=(0, 100),
        ),
        R(
            "dice.dragons_per_health",
            25,
            _P,
            f'{BASICS}: "You must bring 1 dragon to any battle, plus one additional dragon for '
            'each 25 health in your armies."',
            "dragons_required()",
            bounds=(1, 1000),
        ),
        R(
            "dice.dragonkin_per_points",
            3,
            _P,
            f"{KIN}, 'Basics': \"For every full 3 points of other units a player brings to a "
            'game, he is allowed (but not required) to bring one point of dragonkin."',
            "dragonkin_allowance()",
            bounds=(1, 1000),
        ),
        R(
            "dice.kin_black_needs_id",
            True,
            _P,
            f"{KIN}, 'Breath Weapons': \"Black -- Disease: One nonmonster unit in the target army "
            'must roll its ID icon to avoid being killed and buried." false: the unit is killed '
            "when it rolls its ID icon (as the dragon's own black breath kills units rolling ID), "
            "for comparison.",
            "melee kernel (dragonkin black breath)",
        ),
        # ------------------------------------------------------------ derived structure
        R(
            "dice.attack_timing",
            "one-per-army-turn",
            _D,
            f'{ATTACK}: "Combat with a dragon happens at the start of each player\'s turn" and '
            '"After the dragon has rolled, the acting player rolls his army": the dragon attacks '
            "the acting player's army, so an army alone with a dragon is attacked once per turn "
            "of its owner; a game of `turns` attacks is `turns` turns of the army's owner.",
            "army kernel (one attack per turn)",
            choices=("one-per-army-turn",),
        ),
        R(
            "dice.breath_duration",
            "current-attack",
            _D,
            f"{BREATH}: blue and green last \"until the beginning of the owning player's next "
            f'turn", and {ATTACK}: "The attack is after any spells which expire at the end of the '
            'previous turn or the beginning of this turn actually expire": whichever player '
            "'owning' names, the effect is gone before the army's next attack, so it acts on the "
            "current attack only (both readings of 'owning player' agree).",
            "army kernel (blue and green breath)",
            choices=("current-attack",),
        ),
        # ------------------------------------------------------------ assumed readings
        R(
            "dice.id_split",
            "slay-first",
            _A,
            f"{ATTACK}: \"ID icons can be used as melee, missile, or save results as the army's "
            'owner desires" does not say how one roll is split. slay-first (default): ID goes to '
            "the attack only when it completes a slaying (as many dragons as possible, fewest "
            "ID), the rest to saves; save-first: ID first covers the dragon's damage, the rest "
            "attacks.",
            "army kernel (response), exact odds",
            choices=ID_SPLITS,
        ),
        R(
            "dice.casualty_policy",
            "cheapest",
            _A,
            "The army's owner chooses casualties and the rules give no order. cheapest "
            "(default): least health first, then fewest results on the die; largest: most "
            "health first; army-order: as the army lists its units; kin-first: dragonkin first. "
            "The same order decides which units red flame takes and, unless stone_targeting "
            "says otherwise, which units gold breath targets. The API also takes a list of "
            "unit names (first killed first).",
            "casualty order (army and melee kernels, exact odds)",
            choices=POLICIES,
        ),
        R(
            "dice.partial_damage",
            "lost",
            _A,
            "Units die whole; the rules do not say what damage smaller than any remaining "
            "unit's health does. lost (default): it kills nothing (a unit dies only when the "
            "damage left covers its whole health); round-up: it kills one more unit.",
            "army kernel (damage, red flame), exact odds",
            choices=("lost", "round-up"),
        ),
        R(
            "dice.damage_carries",
            False,
            _A,
            f'{ATTACK} counts damage per attack ("it takes a total of 10 damage to slay a dragon '
            '(or only 5 when it rolls a belly icon)"), and the belly is per roll, so by default '
            "damage to a dragon does not carry over to the next attack (or round); true: it "
            "accumulates (on the first dragon present when no dragon is slain).",
            "army and dragon-vs-dragon kernels",
        ),
        R(
            "dice.promotion_supply",
            "unlimited",
            _A,
            f'{ATTACK}: promotion trades "each unit for a dead unit of the same race but worth 1 '
            'health more". The dead unit area is outside the simulation, so by default it '
            "always holds one (unlimited); dead-area: only units killed (not buried) in the game "
            "plus a starting dead area (dead_area= in the API).",
            "army kernel (promotion), exact odds",
            choices=("unlimited", "dead-area"),
        ),
        R(
            "dice.promotion_rounds",
            "per-dragon",
            _A,
            f'{ATTACK}: "If an army slays a dragon, it may promote as many units as possible. '
            '... All promotions occur simultaneously." per-dragon (default): when one roll slays '
            "several dragons, each slaying grants its own round of simultaneous promotions; "
            "once: one round per attack however many dragons died.",
            "army kernel (several dragons)",
            choices=("per-dragon", "once"),
        ),
        R(
            "dice.promotion_order",
            "slaying-then-treasure",
            _A,
            f'{ICONS}: "Treasure: After the attack is resolved, one unit in the target army may '
            'be promoted." When the dragon is slain on a treasure roll the rules do not order '
            "the two. slaying-then-treasure (default): the slaying promotions (all at once) come "
            "first, then the treasure promotion (which can promote a unit just promoted); "
            "treasure-then-slaying: the treasure first.",
            "army kernel (promotion), exact odds",
            choices=("slaying-then-treasure", "treasure-then-slaying"),
        ),
        R(
            "dice.treasure_promotes",
            "army-order",
            _A,
            f'{ICONS}: treasure promotes "one unit in the target army" without saying which; the '
            "owner chooses. army-order (default): the first unit that can be promoted, as the "
            "army lists its unit types (their promotion targets after them); casualty-order: "
            "the first in the casualty order; last-casualty: the last in the casualty order "
            "(the unit the owner would lose last).",
            "army kernel (treasure), exact odds",
            choices=("army-order", "casualty-order", "last-casualty"),
        ),
        R(
            "dice.frost_halving",
            "per-result-type",
            _A,
            f'{BREATH}: "Green -- Frost: All rolls made by the target army (or any individual '
            'units in that army) are halved (rounded down)". per-result-type (default): the '
            "army's roll is halved, each result type (melee, missile, save, ID) summed over the "
            "army then halved; per-unit: each unit's roll is halved on its own (a 1 becomes 0), "
            "the parenthesis read as 'every unit'. Dragonkin armor is automatic, not rolled, "
            "and is never halved.",
            "army kernel (green breath), exact odds",
            choices=("per-result-type", "per-unit"),
        ),
        R(
            "dice.kin_not_rolled",
            "dragon-colour",
            _A,
            f"{KIN}, 'Basics': \"Dragonkin will not battle dragons of their own color. During a "
            "dragon attack, the dragonkin are not rolled, and their saves do not apply. However, "
            'they can be chosen as casualties during the attack." The second sentence reads two '
            "ways. dragon-colour (default): it explains the first, so only dragonkin of the "
            "attacking dragon's colour are not rolled (nor breathed on by black breath, and gold "
            "breath kills them unrolled); all: no dragonkin is rolled during any dragon attack. "
            "Against goblin-thug:2 with three uncommon red dragonkin it moves a black wyrm's "
            "chance of being slain in one attack from 0.21 to 0.",
            "army kernel (response, black and gold breath), exact odds",
            choices=("dragon-colour", "all"),
        ),
        R(
            "dice.kin_in_dragon_attack",
            "melee-and-saves",
            _A,
            f'{KIN}, \'Basics\': dragonkin "act as a normal part of the army" and "are not '
            'included in any rolls for missile or magic". melee-and-saves (default): dragonkin '
            "that are rolled against a dragon count their melee when the army uses melee (never "
            "missile), their saves and armor always; their breath icons have no effect on a "
            "dragon (breath acts on a target army). saves-only: they roll only for the army's "
            "saves (their melee does not count against a dragon).",
            "army kernel (response), exact odds",
            choices=("melee-and-saves", "saves-only"),
        ),
        R(
            "dice.kin_removed_counts_as_lost",
            True,
            _A,
            f"{KIN}, 'Basics': \"If all other army units are killed or leave the terrain, the "
            'dragonkin are removed from play". Whether that counts as health lost is a choice of '
            "what to measure: true (default): it counts in the health lost; false: only units "
            "killed count.",
            "army and melee kernels (health-lost counters), exact odds",
        ),
        R(
            "dice.stone_same_colour_kin",
            "targeted-last",
            _A,
            f'{BREATH}: gold breath kills the targeted units "unless they can generate save '
            "results\", and dragonkin of the dragon's colour are not rolled during its attack "
            "(see kin_not_rolled), so one targeted is killed. targeted-last (default): the owner "
            "targets them last; casualty-order: they are targeted where the casualty order puts "
            "them.",
            "gold breath targeting order (army kernel, exact odds)",
            choices=("targeted-last", "casualty-order"),
        ),
        R(
            "dice.stone_targeting",
            "casualty-order",
            _A,
            f"{BREATH}: \"Gold -- Turn to Stone: ... The army's owner chooses which units are "
            'targeted." casualty-order (default): the owner targets units in the casualty '
            "order; best-savers-first: the units most likely to roll a save (most faces that "
            "save, then the casualty order), which loses the fewest units on average.",
            "gold breath targeting order (army kernel, exact odds)",
            choices=("casualty-order", "best-savers-first"),
        ),
        R(
            "dice.dvd_targeting",
            "focus",
            _A,
            f'{DVD}: "Each dragon\'s owner chooses another dragon as a target" and "dragons of '
            'the same color team up against a dragon of a different color". focus (default): '
            "all dragons of a colour attack one enemy, the first present whose saves a breath "
            "negated, else the first present; first-listed: the first present enemy, negated "
            "saves or not.",
            "dragon-vs-dragon kernel (three or more dragons)",
            choices=("focus", "first-listed"),
        ),
        R(
            "dice.breath_negation_rounds",
            2,
            _A,
            f'{DVD}: "Any breaths rolled negate the 5 automatic saves until the end of the acting '
            "player's next turn\": the round it is rolled and, in a two-player game, the next 2 "
            "rounds (one round per player turn).",
            "dragon-vs-dragon kernel",
            bounds=(0, 100),
        ),
        R(
            "dice.melee_counter_attack",
            True,
            _A,
            f"{KIN}, 'Action Icons': dragonkin breathe \"in melee attacks\"; the melee sequence "
            "itself is not in these rules. true (default): the usual sequence: the attacker "
            "rolls melee (ID as melee), breaths act at once, the defender rolls saves (ID as "
            "saves, armor), damage kills whole units, then the defender's survivors "
            "counter-attack the same way; false: no counter-attack.",
            "melee kernel",
        ),
        R(
            "dice.dragonkin_faces",
            list(DRAGONKIN_FACES),
            _A,
            f"{KIN}, 'Action Icons' name the dragonkin's icons (maneuver, melee, belly, breath) "
            "but no face table is printed, and no public one was found. Assumed for a common "
            "(1-health) dragonkin: Maneuver 1, Melee 1, Melee 1, Belly, Breath, Melee 2, so "
            "melee is its job and it has no ID face (the rules list none); an uncommon (2) and "
            "a rare (3) dragonkin multiply every count by their health (Belly and Breath stay "
            "single icons). Write faces as 'Kind N' ('Melee 2', 'Belly').",
            "the shipped dragonkin unit dice (<colour>-dragonkin-<size>) in every kernel",
            validate=_kin_faces_ok,
        ),
    ]


RULES: dict[str, Rule] = {r.key: r for r in _rules()}
