"""The Dragon Lords advanced rules' declarations (pp. 15-18): the riders' and the Wizard's
tables (pp. 18, 24), then one switch per rule of the advanced rules' pages, each with its book
label (advanced, or optional where the book says so), page and kernel slot, followed by the
readings of its ambiguous text.

Each entry is a :class:`~dragonsim.rules.core.Rule`; the registry
(:mod:`dragonsim.rules.lords`) lists this module's :data:`ADVANCED` after the basic game's.
"""

from __future__ import annotations

from ..core import Rule

R = Rule
_P, _A = "printed", "assumed"

ADVANCED: list[Rule] = [
    # ---------------------------------------------------------------- riders & spells
    R(
        "lords.riders",
        {
            "Lancer": [0, 0, 0, 0, 0, 0],
            "Javelin Thrower": [1, 1, 3, 2, 1, 0],
            "Archer": [2, 1, 4, 4, 1, 1],
            "Crossbow Shooter": [3, 1, 6, 6, 1, 3],
            "Wizard": [0, 0, 0, 0, 0, 0],
        },
        _P,
        "Rider Abilities Table (p.18) as [medium range, medium d6, medium plus, long range, "
        "long d6, long plus]: Javelin 1 hex 1d6+3 / 2 hexes 1d6; Archer 2 / 1d6+4, 4 / 1d6+1; "
        "Crossbow 3 / 1d6+6, 6 / 1d6+3. Lancer acts in close combat; Wizard casts spells.",
        "rider actions",
        bounds=(0, 30),
    ),
    R(
        "lords.lancer",
        {"close_combat": 2, "damage": 4},
        _P,
        "\"The Lancer adds +2 to the dragon's close combat roll and +4 points of damage in "
        'close combat" (p.18)',
        "close combat",
        bounds=(0, 20),
    ),
    # ---------------------------------------------------------------- advanced rules
    # one switch per rule of the advanced rules' pages (pp. 15-18; false: the basic game);
    # the key names the section, the ``label`` says whether the book calls the rule
    # optional, and the presets (PRESETS below) are built from the labels
    R(
        "lords.advanced.initiative",
        False,
        _P,
        '"Maneuverability Effect on Initiative Roll": A-C +2, D-F 0, G-I -2 (advanced rules, '
        "p.15); the table is lords.initiative_modifier. The rating read is the current one, "
        "so a tail hit that lowers the maneuverability (p.12) changes the next initiative.",
        "initiative (advanced rules)",
        label="optional",
        page="p.15",
        slot=("init_mod", 1),
    ),
    R(
        "lords.initiative_tie",
        "plain",
        _A,
        "'In case of a tie, the players involved roll 2d6 again to figure the movement order "
        "of that group' (p.7); the optional rule modifies 'its initiative rolls' by "
        "maneuverability (p.15) and a Dazed critical gives '-2 to initiative roll' (p.19). "
        "Whether the roll-off is such a roll is not said. 'plain' (default): the roll-off "
        "is a plain 2d6 that only breaks the tie, as the basic rules' roll-off is; "
        "'modified': each dragon's roll-off gets the same modifiers as its initiative roll.",
        "initiative (advanced rules, optional)",
        choices=("plain", "modified"),
        slot=("init_tie_modified", 27),
        reading_of="lords.advanced.initiative",
    ),
    R(
        "lords.advanced.acceleration",
        False,
        _P,
        '"Advanced Acceleration Allowance" by wing size, Huge 6 ... Tiny 2 (advanced rules, '
        "p.16), in place of the basic rules' 3 points faster than last turn (p.7); the table "
        "is lords.acceleration_by_wings.",
        "record speed (advanced rules)",
        label="optional",
        page="p.16",
        slot=("accel_wings", 5),
    ),
    R(
        "lords.advanced.lancer",
        False,
        _P,
        "Riders act only in the advanced rules: the basic sequence of play has six phases "
        "and none for riders (p.7), and its close combat adds 'the close combat modifiers "
        "listed on their respective play sheets' (p.13); the advanced sequence adds 'Record "
        "Rider Actions' and 'Rider Actions' (p.15), and 'The Lancer adds +2 to the dragon's "
        "close combat roll and +4 points of damage in close combat' (p.18), values in "
        "lords.lancer. Exact odds (odds.close_combat) and the engine read this one switch: "
        "the Lancer's +2 counts in both or in neither. The other riders' attacks are "
        "lords.advanced.rider_attacks, rider deaths lords.advanced.rider_deaths; the bots' "
        "estimate of a close combat before they engage reads the Close Combat Ability Table "
        "alone.",
        "close combat (Lancer), odds, pricing (advanced rules)",
        label="advanced",
        page="p.18",
        slot=("riders", 2),
    ),
    R(
        "lords.advanced.move_early",
        False,
        _P,
        "'Moving Earlier in the Phase': 'A dragon with a high initiative may, if it likes, "
        "move earlier in the phase ... Once you commit to move early, you may not change "
        "your mind. If more than one player would like to move at a particular time, the one "
        "with the higher initiative roll moves first'; rider actions keep the original "
        "order (p.15). Before each dragon's turn to move, every dragon later in the order "
        "that has not moved may announce. 'Your initiative roll may now be kept secret "
        "until it is your turn to move' (p.15): the bots decide from what every player "
        "sees (who has moved), never from a roll not yet revealed, so the rolls are always "
        "as good as secret and need no switch of their own.",
        "movement (advanced rules)",
        label="advanced",
        page="p.15",
        slot=("move_early", 11),
    ),
    R(
        "lords.advanced.crash_very_low",
        False,
        _P,
        "'When two dragons engage in close combat at Very Low altitude, the mandatory loss "
        "of altitude will cause the two dragons to crash to the ground before the combat has "
        "taken place. The combat will still occur, but only after you figure out the effects "
        "of the crash' (p.17): an engagement at Very Low is allowed (the basic rules forbid "
        "it, p.9), both fall one level, and the fight is then one on the ground ('No "
        "altitude or speed loss will occur', p.17). Any crash rolls its damage on the Rear "
        "column, 1d6 per level fallen, and a rider dies in the fall on 1-3 (p.22; values "
        "lords.ground); a dragon on the ground moves 1d6+3 hexes with free turns, or takes "
        "off, breathes at -1 and may fight another dragon on the ground (p.17).",
        "close combat, the ground (advanced rules)",
        label="advanced",
        page="p.17",
        slot=("crash_very_low", 12),
    ),
    R(
        "lords.advanced.crash_slow",
        False,
        _P,
        "'If the mandatory two-step loss of speed in close combat brings a dragon's speed "
        "below its minimum speed, that dragon will crash to the ground after the close "
        "combat has been resolved. It does not matter if the crashing dragon won or lost "
        "the combat, or even what altitude the combat took place at' (p.17), in place of "
        "the basic rules' 'simply record the dragon's minimum speed' (p.13); 'If the winner "
        "crashes, it must also roll for facing after the loser does. It doesn't get to "
        "choose its facing' (p.22). The crash and the ground as for "
        "lords.advanced.crash_very_low.",
        "close combat, the ground (advanced rules)",
        label="advanced",
        page="p.17",
        slot=("crash_slow", 13),
    ),
    R(
        "lords.advanced.crash_zeroed",
        False,
        _P,
        "'If a dragon is reduced to 0 damage points in its tail or either of its wings, it "
        "will crash to the ground as it can no longer fly. If its head or body are reduced "
        "to 0 damage points, the dragon has been killed' (p.17), in place of the basic "
        "rules' removal for any part at 0 (p.12). The crash comes when the damage takes "
        "effect (after every breath, after every rider has acted, after the close combat). "
        "On the ground 'it may turn in that hex but it may not move from it' and 'Any "
        "additional damage to a tail or wing after that part has been reduced to 0 "
        "transfers to the body instead' (p.17); it can never take off again (p.22).",
        "damage, the ground (advanced rules)",
        label="advanced",
        page="p.17",
        slot=("crash_zeroed", 14),
    ),
    R(
        "lords.crash_stuck",
        "zeroed",
        _A,
        "After the three ways to crash, p.17 goes on: 'If the dragon survives the fall, it "
        "may turn in that hex but it may not move from it ... Any additional damage to a "
        "tail or wing after that part has been reduced to 0 transfers to the body instead', "
        "and p.22 says a dragon whose tail or wing is zeroed can never take off. 'zeroed' "
        "(default): the sentence is the third way's, whose last words it shares, so only a "
        "dragon a zeroed tail or wing brought down is stuck; the others move on the ground "
        "(1d6+3 hexes) and take off as a landed dragon does; 'every-crash': a dragon that "
        "crashed in any of the three ways may turn but never leaves its hex again.",
        "the ground (advanced rules)",
        choices=("zeroed", "every-crash"),
        slot=("crash_stuck_every", 36),
        reading_of="lords.advanced.crash_zeroed",
    ),
    R(
        "lords.takeoff_speed",
        "max-and-7",
        _A,
        "'A dragon taking off must record a speed of at least 1 point more than the "
        "dragon's minimum speed and no higher than 7' (p.17), and the basic rules keep every "
        "speed within the dragon's minimum and maximum (p.7). 'max-and-7' (default): no "
        "higher than 7 nor than the dragon's maximum speed now (the book names no exception "
        "to the maximum, which damage can lower); '7': no higher than 7 whatever its "
        "maximum. With the printed speeds a maximum never falls below 7 (Tiny wings 11, "
        "less 2 for each seriously damaged wing, p.12), so the two differ only under an "
        "overridden lords.max_speed_by_wings.",
        "the ground (advanced rules)",
        choices=("max-and-7", "7"),
        slot=("takeoff_over_max", 37),
        reading_of="lords.advanced.landing",
    ),
    R(
        "lords.advanced.banking",
        False,
        _P,
        "'Banking: A dragon may bank, i.e. move forward at a 60 deg angle while retaining "
        "its facing, by spending points equal to twice its 60 deg turn cost, with a minimum "
        "of 1 point spent ... A dragon may bank several times in a row, but for every two "
        "banks in sequence, the dragon's altitude drops by one level. However, a dragon may "
        "bank, move forward or turn, and then bank again with no altitude change. A dragon "
        "can't bank twice in a row at Very Low altitude' (p.16): a bank moves to the hex "
        "forward-left or forward-right keeping the facing, costs lords.bank_cost_factor x "
        "the 60 deg turn cost (at least lords.bank_cost_minimum), is not a turn, and the "
        "second, fourth, ... bank of a run drops one level. Readings: "
        "lords.bank_very_low, lords.bank_hex. The planning bots bank one at a time (no "
        "drop); the random bot plays every legal bank, runs of them included.",
        "movement (advanced rules)",
        label="advanced",
        page="p.16",
        slot=("banking", 28),
    ),
    R(
        "lords.advanced.turn_between",
        False,
        _P,
        "'Turning Between Move Phases: This rule is optional. All players must agree to use "
        "it. If a dragon ends its move by turning 60 deg or 120 deg in a hex, it may "
        "continue to turn in that hex at the beginning of the next movement phase. However, "
        "it may only turn in the same direction (left or right) as in the previous movement "
        "phase, and it must spend the balance of the points for the total turn' (p.16): a "
        "dragon whose move ended with a turn starts its next move with a forward step, a "
        "bank, or more turn the same way for cost(total) - cost(turned), never past 180 "
        "deg, and no fresh turn in that hex. The book calls it optional, so it is in "
        "advanced+optional and not in advanced. Of the paths to a move's end the bots fly "
        "one that ends with a step when there is one; a scripted path leaves the turn "
        "its own last hex does. Spin does not count ('being spun "
        "about does not affect the dragon's turning', p.25); landing, a crash and the "
        "ground end the turn. Readings: lords.turn_between_180, "
        "lords.turn_between_close_combat.",
        "movement (advanced rules)",
        label="optional",
        page="p.16",
        slot=("turn_between", 31),
    ),
    R(
        "lords.advanced.landing",
        False,
        _P,
        "'A dragon may land on the ground from Very Low altitude by moving forward 1 hex and "
        "spending 1 point. This must be the dragon's last point, as its move ends there' "
        "(p.17): the move's other points end at Very Low, the hex ahead is the landing hex. "
        "The planning bots never land (a dragon on the ground moves at most 9 hexes, takes "
        "off straight ahead at its minimum speed and is a target that cannot dodge, for a "
        "-1 on its own breath); the random bot lands at a quarter of its chances; scripts "
        "say when.",
        "movement, the ground (advanced rules)",
        label="advanced",
        page="p.17",
        slot=("landing", 15),
    ),
    R(
        "lords.advanced.rider_attacks",
        False,
        _P,
        "The advanced sequence of play adds '4. Record Rider Actions' and '5. Rider Actions' "
        "after movement and before the breath targets are recorded (p.15): the Javelin "
        "Thrower, Archer and Crossbow Shooter shoot 'at any target within range', 'handled "
        "like a dragon's breath weapon attack' with 'a full 360 deg arc of fire', in "
        "initiative order from lowest to highest, even while their dragon is engaged (p.18). "
        "Ranges and damage are lords.riders (the Rider Abilities Table), the to-hit "
        "lords.rider_to_hit; the readings lords.rider_engaged_targets and "
        "lords.rider_effects. The Wizard's spells are lords.advanced.wizard.",
        "rider actions (advanced rules)",
        label="advanced",
        page="p.18",
        slot=("rider_attacks", 7),
    ),
    R(
        "lords.advanced.rider_deaths",
        False,
        _P,
        "\"Whenever a dragon's body is hit in breath or close combat, roll 2d6 ... If the "
        "result is a 7, the rider has been hit instead of the dragon. Regardless of the "
        "amount of damage done, the rider is instantly killed. The dragon takes no damage "
        "from the attack\" (p.18); a rider attack, 'handled like a dragon's breath weapon "
        "attack', rolls too. A dead Lancer no longer adds its +2 / +4; a rider killed "
        "before its action loses it. The roll is lords.rider_hit_roll.",
        "breath combat, close combat, rider actions (advanced rules)",
        label="advanced",
        page="p.18",
        slot=("rider_deaths", 8),
    ),
    R(
        "lords.rider_check_rider_hits",
        "check",
        _A,
        "\"Whenever a dragon's body is hit in breath or close combat, roll 2d6 ... If the "
        'result is a 7, the rider has been hit instead of the dragon" (p.18) names breath '
        "and close combat only, but a rider's attack is 'handled like a dragon's breath "
        "weapon attack' (p.18). 'check' (default): a body hit by a rider's attack (and by "
        "the Wizard's Fireball or Lightning Bolt, resolved as one) rolls the 2d6 too; "
        "'breath-and-close-combat': only breath and close combat roll it, as the sentence "
        "names them.",
        "rider actions (advanced rules)",
        choices=("check", "breath-and-close-combat"),
        slot=("rider_hit_no_check", 35),
        reading_of="lords.advanced.rider_deaths",
    ),
]
