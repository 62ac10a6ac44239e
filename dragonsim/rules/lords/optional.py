"""The Dragon Lords optional rules' declarations (pp. 19-25): one switch per rule of the
optional rules' pages (critical hits, fumbles, multiple hits, tactics; and the Wizard, which
sits on these pages but is no optional rule), each with its label, page and kernel slot, the
readings of their ambiguous text, and the tables of the Wizard, its spells and the riders'
attacks.

Each entry is a :class:`~dragonsim.rules.core.Rule`; the registry
(:mod:`dragonsim.rules.lords`) lists this module's :data:`OPTIONAL` after the advanced rules'.
"""

from __future__ import annotations

from ..core import Rule
from .components import SPELLS

R = Rule
_P, _A = "printed", "assumed"

OPTIONAL: list[Rule] = [
    # ---------------------------------------------------------------- optional rules
    # one switch per rule of the optional rules' pages (pp. 19-25; false: not played); the
    # Wizard (pp. 18, 24-25) sits here by its pages but is not labeled optional
    R(
        "lords.optional.critical_hits",
        False,
        _P,
        "'If, when breathing at an opponent, you roll an unmodified 12 on your 2d6, you have "
        "scored a critical hit. This can only happen if the modified to-hit number was 11 or "
        "less to begin with. Roll on the Critical Hit Table' (optional rules, p.19; the table "
        "is lords.critical_hits, the numbers lords.optional_combat). 'Critical hit results "
        "can add up ... In the unlikely event of 4 broken legs, reroll. Also, in no case can "
        "any statistic be reduced below the lowest possible rating for that statistic. If "
        "this happens, simply reroll.' The effects last 'for remainder of game' and add to "
        "serious damage's (both clamp at Cold, the lowest tooth-and-claw step and MR I); "
        "Dazed is -2 to every later initiative roll; Rider thrown loses the rider, or breaks "
        "a leg when there is none; Killed removes the dragon when all have breathed, as "
        "every removal in breath combat. Rider attacks never crit ('when breathing'). The "
        "double and triple damage is the reading lords.critical_body_damage.",
        "breath combat, initiative (optional rules)",
        label="optional",
        page="p.19",
        slot=("criticals", 16),
    ),
    R(
        "lords.optional.fumbles",
        False,
        _P,
        "'If you roll an unmodified 2 when rolling to hit with a breath weapon, your dragon "
        "has breathed on itself! If you have a rider, check for rider damage. Otherwise roll "
        "on the Fumble Table to determine how much damage the dragon did to itself and "
        "where' (optional rules, p.20; the table is lords.fumbles). The rider check is "
        "lords.advanced.rider_deaths's 2d6 (a 7 kills the rider and the dragon takes no "
        "damage; no check without a rider or with rider deaths off); what follows a check "
        "that spared the rider is the reading lords.fumble_rider. A fumble is not a "
        "damaging breath attack on a target for lords.optional.multiple_hits.",
        "breath combat (optional rules)",
        label="optional",
        page="p.20",
        slot=("fumbles", 17),
    ),
    R(
        "lords.optional.multiple_hits",
        False,
        _P,
        "'a dragon is limited to suffering damage from up to 3 breath attacks per turn. A "
        "dragon may be breathed at any number of times; only those attacks that do damage "
        "apply to the three hit limit. After that, any other players that recorded that "
        "dragon as a target may not breathe on it, nor may they switch targets ... resolve "
        "all attacks in order of initiative' (optional rules, p.20): a breath whose target "
        "has already suffered damage from lords.optional_combat's hit_limit breaths this "
        "turn is not rolled (and its dragon does not breathe at all). An attack 'does "
        "damage' when its target lost points (a critical's extra damage counts).",
        "breath combat (optional rules)",
        label="optional",
        page="p.20",
        slot=("hit_limit", 18),
    ),
    R(
        "lords.hit_limit_order",
        "high-first",
        _A,
        "'If this rule is used, keep in mind that more alert dragons will get in the first "
        "shots, so resolve all attacks in order of initiative' (p.20). 'high-first' "
        "(default): the highest initiative roll breathes first, as the more alert dragon is "
        "the one with the higher roll (it moves later, having seen more, and may move early, "
        "p.15), so under the three-hit limit the least alert attackers are the ones left "
        "without a target; 'low-first': the order of movement, lowest roll first (the "
        "Example of Play breathes that way, p.36, where the order does not matter). "
        "Without the three-hit limit the order changes nothing but which dice roll which "
        "attack, and the breaths are resolved lowest first.",
        "breath combat (optional rules)",
        choices=("high-first", "low-first"),
        slot=("hit_limit_low_first", 24),
        reading_of="lords.optional.multiple_hits",
    ),
    R(
        "lords.advanced.wizard",
        False,
        _P,
        "The Wizard (p.18) and the Wizard's Spellbook (pp. 24-25): 'Each Wizard begins the "
        "game with 60 magic points'; 'Wizards must also record ... which spell they will "
        "cast during the upcoming rider actions phase' (p.15), so every spell and its target "
        "is recorded before any rider acts, and cast in the rider actions phase in "
        "initiative order; 'A Wizard can only try to cast one spell each turn'; 'the Wizard "
        "must roll to hit just like the other riders ... for every target and spell, even "
        "... on their own dragons or allied dragons' (lords.rider_to_hit with the spell's "
        "medium and long range, lords.spells; on its own dragon 'roll a 7 or more', sizes "
        "ignored, lords.wizard); 'immediately deduct the cost'; 'If there aren't enough "
        "spell points, the spell cannot be cast'; 'If a Wizard misses ... the spell fails "
        "and the points are lost'; 'each spell lasts until the beginning of the next rider "
        "actions phase' (p.24). A recorded spell whose target left play, or whose Wizard was "
        "killed, before its turn is not cast (no points spent). Readings where the text is "
        "silent: the damage spells are cast at enemies ('at an opponent'), resolved as a "
        "rider's attack: the direction template from the caster, the 2d6 location, the "
        "rider check of a body hit (lords.advanced.rider_deaths), no critical or fumble; "
        "Distort Range shifts the breath of the dragon it hits one step of the Range Key "
        "either way, the caster's choice, within Very Short..Very Long (its rider's attacks "
        "are not breath); Dull and Sharpen one tooth-and-claw step (the reading "
        "lords.dull_floor); Force Shield absorbs every damage the dragon takes until the "
        "next rider actions phase (breath, riders, spells, close combat, its own close-"
        "combat 1d6, fumbles and crashes), two shields add; Heal 1d6+3 points, each to a "
        "damaged part, never above its starting points (the bot: to the part with the "
        "fewest points left; serious damage effects are recomputed); Saddlesore takes the "
        "target rider's next rider action (this turn when it acts later in the order, else "
        "next turn; a Lancer acts in close combat and is not affected); Spin turns the "
        "target up to 120 deg either way at once (its turning this turn unaffected). "
        "Lethargy and Vigor move the maneuverability two steps (within A..I) for the "
        "dragon's next movement phase only (turning, not its close combat modifier); "
        "Quicken lets the next recorded speed be 5 above the last one (+2 to the allowance "
        "with lords.advanced.acceleration), up to 2 above the maximum; Slow caps the next "
        "one at the minimum + 2. The numbers are lords.spell_effects. Off: a Wizard only "
        "rides (and can be killed by a body hit, p.18).",
        "rider actions, breath combat, close combat, record speed, movement (optional rules)",
        label="advanced",
        page="pp. 18, 24-25",
        slot=("wizard", 22),
    ),
    R(
        "lords.spell_effects",
        {
            "fireball_dice": 1,
            "fireball_plus": 3,
            "bolt_dice": 1,
            "bolt_plus": 0,
            "shield": 10,
            "heal_dice": 1,
            "heal_plus": 3,
            "mr_steps": 2,
            "quicken_over_last": 5,
            "quicken_allowance": 2,
            "quicken_over_max": 2,
            "slow_over_min": 2,
            "spin_hexsides": 2,
            "range_steps": 1,
            "claw_steps": 1,
        },
        _P,
        "The Wizard's Spellbook (pp. 24-25): Fireball 'inflicting 1d6+3 points of damage', "
        "Lightning Bolt '1d6 points of damage', Force Shield 'will absorb 10 points of "
        "damage', Heal 'restores 1d6+3 damage points', Lethargy 'drop two maneuverability "
        "steps' (Vigor 'as if ... 2 steps higher'), Quicken 'a speed 5 points greater than "
        "its previous turn's speed', '+2 to the dragon's acceleration allowance', 'up to 2 "
        "greater than its maximum speed', Slow 'only up to 2 greater than its minimum "
        "speed', Spin 'turn the target up to 120 deg', Distort Range 'by one step', Dull and "
        "Sharpen one step",
        "rider actions (the Wizard, advanced rules)",
        bounds=(0, 60),
    ),
    R(
        "lords.dull_floor",
        "Dull",
        _A,
        "Dull: 'Sharp claws will do damage like Blunt claws. No sharpness rating may be "
        "forced below Dull' (p.24): the example names Blunt, the limit Dull. 'Dull' "
        "(default, the limit as printed): one step down but never below Dull (Sharp and "
        "better lose a step; Dull and Blunt claws are unchanged); 'Blunt': one step down to "
        "the lowest rating (Dull becomes Blunt).",
        "close combat (the Wizard, advanced rules)",
        choices=("Dull", "Blunt"),
        slot=("dull_to_blunt", 26),
        reading_of="lords.advanced.wizard",
    ),
    R(
        "lords.optional_combat",
        {"critical_max_target": 11, "broken_legs": 4, "dazed_initiative": -2, "hit_limit": 3},
        _P,
        "'This can only happen if the modified to-hit number was 11 or less' (a critical, "
        "p.19); 'In the unlikely event of 4 broken legs, reroll' (p.19); 'Dazed! -2 to "
        "initiative roll for remainder of game' (p.19); 'limited to suffering damage from up "
        "to 3 breath attacks per turn' (p.20). The unmodified 12 and 2 are lords.auto_hit "
        "and lords.auto_miss.",
        "breath combat, initiative (optional rules)",
        bounds=(-12, 20),
    ),
    R(
        "lords.critical_body_damage",
        "additional",
        _A,
        "'Double damage to body!' / 'Triple damage to body!' (Critical Hit Table, p.19) in a "
        "table that names the 'additional damage' a critical does (p.19). 'additional' "
        "(default): the hit's damage (its damage dice and plus) once / twice more on the "
        "body, beside the normal hit on the rolled location; 'in-place': the hit's damage "
        "x2 / x3 goes to the body in place of the rolled location.",
        "breath combat (optional criticals)",
        choices=("additional", "in-place"),
        slot=("crit_in_place", 19),
        reading_of="lords.optional.critical_hits",
    ),
    R(
        "lords.fumble_rider",
        "check-then-table",
        _A,
        "'If you have a rider, check for rider damage. Otherwise roll on the Fumble Table' "
        "(p.20). 'check-then-table' (default): the rider check first; if it kills the rider "
        "the dragon takes no damage (as on p.18), otherwise the Fumble Table follows; "
        "'rider-only': with a rider only the check is rolled, the table only without one.",
        "breath combat (optional fumbles)",
        choices=("check-then-table", "rider-only"),
        slot=("fumble_rider_only", 20),
        reading_of="lords.optional.fumbles",
    ),
    R(
        "lords.optional.tactics",
        False,
        _P,
        "'Each dragon has six tactics it may use during close combat: Lunge, Slash, Bite, "
        "Tail Swing, Fake and Defend ... You may only use each tactic five times during a "
        "game' (optional rules, p.22; the counts are lords.tactic_uses). 'The dragon that "
        "instigated the close combat is referred to as the attacker' (the dragon that "
        "engaged, p.9); 'both players secretly choose their tactics ... reveal their choices "
        "simultaneously ... The result is the adjustment to the attacker's modified close "
        "combat score' (the table is lords.tactics). A winner that used Lunge 'inflicts an "
        "additional +1d6 points of damage'; a winner that used Defend: 'no damage is "
        "inflicted on either dragon' (its own 1d6 neither; what else it does is the reading "
        "lords.defend_win); both Defend: 'no combat rolls are necessary. The altitude and "
        "speed of the dragons are still affected'. A tactic is checked off when it is "
        "revealed; after the 30th check mark all are erased at once ('you may erase your "
        "check marks and start over').",
        "close combat (optional rules)",
        label="optional",
        page="p.22",
        slot=("tactics", 21),
    ),
    R(
        "lords.tactic_uses",
        {"per_tactic": 5, "reset_after": 30},
        _P,
        "'You may only use each tactic five times during a game. If in a particularly "
        "grueling game you manage to get into 30 close combats, thereby using all your "
        "tactics up, you may erase your check marks and start over with a fresh set of "
        "tactics' (optional rules, p.22).",
        "close combat (optional tactics)",
        bounds=(1, 99),
    ),
    R(
        "lords.defend_win",
        "turn",
        _A,
        "'If a dragon used a Defend tactic and won the combat round, no damage is inflicted "
        "on either dragon' (p.22) says nothing of the facings. 'turn' (default): only the "
        "damage is gone (the tooth-and-claw roll and the winner's own 1d6 are not rolled); "
        "the loser still rolls the direction template and the winner still chooses its "
        "facing, as after every close combat (p.13); 'no-turn': neither dragon's facing "
        "changes and nothing is rolled after the two 2d6.",
        "close combat (optional tactics)",
        choices=("turn", "no-turn"),
        slot=("defend_no_turn", 23),
        reading_of="lords.optional.tactics",
    ),
    R(
        "lords.rider_engaged_targets",
        "own-opponent",
        _A,
        "A rider may shoot 'either at its dragon's opponent or at any other target within "
        "range' (p.18), but breath may not be aimed at 'dragons that are engaged in close "
        "combat' by a dragon not in that fight (p.10). 'own-opponent' (default): a rider "
        "shoots at its own dragon's opponent or at a dragon not engaged, as the breath rule "
        "reads for an attack 'handled like a dragon's breath weapon attack'; 'any': at any "
        "enemy in range, engaged or not.",
        "rider actions (advanced rules)",
        choices=("own-opponent", "any"),
        slot=("rider_at_engaged", 9),
        reading_of="lords.advanced.rider_attacks",
    ),
    R(
        "lords.rider_ground_attacker",
        "as-breath",
        _A,
        "'If the attacker is on the ground, it gets a -1 to its attack number' is printed "
        "for breath combat (advanced rules, p.19); a rider's attack is 'handled like a "
        "dragon's breath weapon attack' (p.18). 'as-breath' (default): a rider on a dragon "
        "on the ground shoots with the same modifier (lords.ground_attacker_mod); 'none': "
        "the modifier is the breath's alone.",
        "rider actions, the ground (advanced rules)",
        choices=("as-breath", "none"),
    ),
    R(
        "lords.rider_effects",
        "after-all-riders",
        _A,
        "When a rider's damage takes effect: the rulebook orders the rider actions by "
        "initiative (p.18) but does not say whether a dragon destroyed by a rider loses its "
        "own rider's action. 'after-all-riders' (default): serious damage effects and "
        "removals wait until every rider has acted, as in breath combat ('still gets to "
        "make its own attack', p.12); 'at-once': after each attack. A rider killed by the "
        "2d6 = 7 rule is 'instantly killed' (p.18) either way.",
        "rider actions (advanced rules)",
        choices=("after-all-riders", "at-once"),
        slot=("rider_at_once", 10),
        reading_of="lords.advanced.rider_attacks",
    ),
    R(
        "lords.rider_hit_roll",
        7,
        _P,
        "\"Whenever a dragon's body is hit ... roll 2d6 ... If the result is a 7, the rider "
        'has been hit instead of the dragon" (p.18)',
        "damage (riders)",
        bounds=(2, 12),
    ),
    R(
        "lords.rider_to_hit",
        {"medium": 0, "long": 1},
        _A,
        "Rider attacks roll to hit as for breath (base 8, target size and altitude "
        "modifiers) with a 360 deg arc: within the medium range +0 and medium effects, beyond "
        "it up to the long range +1 and long effects (p.18 says only that a rider attack 'is "
        "handled like a dragon's breath weapon attack' with a full 360 deg arc; the long "
        "range is one step harder, as Long Range is for breath).",
        "rider actions",
        bounds=(-12, 12),
    ),
    R(
        "lords.wizard",
        {"magic_points": 60, "self_target": 7},
        _P,
        '"Each Wizard begins the game with 60 magic points"; on its own dragon '
        '"the Wizard must simply roll a 7 or more" (p.18)',
        "rider actions",
        bounds=(0, 1000),
    ),
    R(
        "lords.spells",
        {
            "Distort Range": [3, 3, 6],
            "Dull": [2, 2, 5],
            "Fireball": [1, 2, 4],
            "Force Shield": [3, 2, 4],
            "Heal": [3, 1, 3],
            "Lethargy": [3, 2, 4],
            "Lightning Bolt": [1, 3, 6],
            "Quicken": [3, 2, 4],
            "Saddlesore": [2, 3, 6],
            "Sharpen": [2, 2, 5],
            "Slow": [3, 2, 4],
            "Spin": [2, 2, 4],
            "Vigor": [3, 2, 4],
        },
        _P,
        "The Wizard's Spellbook (p.25) as [cost, medium range, long range]; the first five "
        "rows printed, the other eight cut off and assumed within the span of the printed "
        "rows (cost 1-3, medium range 1-3, long range 3-6): Lethargy 3/2/4, Lightning Bolt "
        "1/3/6, Quicken 3/2/4, Saddlesore 2/3/6, Sharpen 2/2/5, Slow 3/2/4, Spin 2/2/4, "
        "Vigor 3/2/4.",
        "rider actions (wizard)",
        bounds=(0, 60),
        row_provenance={s: _A for s in SPELLS[5:]},
    ),
]
