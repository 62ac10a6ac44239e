"""Dragon Lords rules data (the Dragon Lords rulebook, Grenadier).

Every table the rulebook has, each tagged printed (stated in the rulebook), derived (not
printed, but forced by printed values: the derivation is in the rule's text and a test
re-derives it) or assumed (our choice where nothing printed decides: overridable, and listed
by ``python -m dragonsim rules --assumed``), with the rulebook's wording or the reasoning
beside it. Several tables of the rulebook's text are cut short; those rows say so.
Component names and orders are the rulebook's "steps" (p.26): index 0 is the weakest.
"""

from __future__ import annotations

from .core import Rule

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

_SEED = "rulebook"
_P = "printed"
_D = "derived"
_A = "assumed"


def _arc_limits(v) -> str | None:
    d, g, l = v["dark"], v["grey"], v["light"]
    if any(x % 30 for x in (d, g, l)):
        return f"arc limits must be multiples of 30 degrees, got {d}/{g}/{l}"
    if not d <= g <= l:
        return f"arc limits must not decrease (dark <= grey <= light), got {d}/{g}/{l}"
    return None


def _rules() -> list[Rule]:
    R = Rule
    out = [
        # ---------------------------------------------------------------- dice & to-hit
        R(
            "lords.base_to_hit",
            8,
            _P,
            '"Start with the base number 8 and modify this number appropriately" (p.10)',
            "breath and rider to-hit",
            bounds=(2, 12),
        ),
        R("lords.auto_miss", 2, _P, '"A roll of 2 always misses" (p.10)', "to-hit", bounds=(0, 12)),
        R(
            "lords.auto_hit",
            12,
            _P,
            '"a roll of 12 always hits, even if the target number is 13 or more" (p.10)',
            "to-hit",
            bounds=(2, 13),
        ),
        R(
            "lords.max_breath_range",
            6,
            _P,
            '"A dragon can only breathe at a target in its arc of fire and within 6 hexes" (p.10)',
            "breath targets",
            bounds=(1, 30),
        ),
        R(
            "lords.range_key",
            {1: "Very Short", 2: "Short", 3: "Medium", 4: "Medium", 5: "Long", 6: "Very Long"},
            _P,
            "The Range Key: 1 hex Very Short, 2 Short, 3-4 Medium, 5 Long, 6 Very Long (p.10)",
            "range modifier",
            choices=("Very Short", "Short", "Medium", "Long", "Very Long"),
        ),
        R(
            "lords.range_mod",
            {"Very Short": -2, "Short": -1, "Medium": 0, "Long": 1, "Very Long": 2},
            _P,
            "To-Hit Modifiers Table: Very Long +2, Long +1, Short -1, Very Short -2 (p.11)",
            "breath to-hit",
            bounds=(-12, 12),
        ),
        R(
            "lords.wing_tohit",
            {"Tiny": 1, "Small": 0, "Medium": 0, "Large": 0, "Huge": -1},
            _P,
            '"Target has Huge Wings -1; Target has Tiny Wings +1" (p.11)',
            "breath to-hit",
            bounds=(-12, 12),
        ),
        R(
            "lords.body_tohit",
            {"Very Light": 1, "Light": 0, "Average": 0, "Heavy": 0, "Very Heavy": -1},
            _P,
            '"Target is Very Light +1; Target is Very Heavy -1" (p.11)',
            "breath to-hit",
            bounds=(-12, 12),
        ),
        R(
            "lords.arc_mod",
            {"dark": 0, "grey": 1, "light": 3},
            _P,
            '"Dark Hexes: no modifier ... Grey Hexes: +1 ... Light Hexes: +3" (p.10)',
            "breath to-hit",
            bounds=(-12, 12),
        ),
        R(
            "lords.arc_degrees",
            {"dark": 30, "grey": 60, "light": 90},
            _A,
            "The arc figure (p.10) is not in the text. The angle between the attacker's facing and "
            "the line to the target's hex centre: up to 30 deg dark, to 60 grey, to 90 light, "
            "beyond out of arc; a boundary counts in the better area. Reproduces the Example of "
            "Play (range 5: Lectronist in Kelvinight's grey hexes, Kelvinight in Lectronist's "
            "dark hexes, pp. 36-37). Limits are multiples of 30 deg (exact hex geometry).",
            "arc of fire",
            bounds=(0, 180),
            validate=_arc_limits,
        ),
        R(
            "lords.altitude_mod",
            [0, 0, 1, 1, 2],
            _A,
            'Printed row "2-3 Step Difference in Altitude" lost its value. Assumed: 0-1 steps '
            "+0, 2-3 steps +1 (the printed row's name), 4 steps +2 (one more step of difficulty "
            "for the widest gap; index = steps apart).",
            "breath and rider to-hit",
            bounds=(-12, 12),
        ),
        R(
            "lords.ground_attacker_mod",
            -1,
            _P,
            '"If the attacker is on the ground, it gets a -1 to its attack number" '
            "(advanced, p.19)",
            "breath to-hit (advanced rules)",
            bounds=(-12, 12),
        ),
        # ---------------------------------------------------------------- movement
        R(
            "lords.move_cost",
            {"forward": 1, "climb": 2, "dive": 0, "land": 1},
            _P,
            "Movement Point Costs: Fly Forward 1, Climb 2, Dive 0 (p.8); landing 1 (p.17)",
            "movement",
            bounds=(0, 10),
        ),
        R(
            "lords.turn_cost",
            {
                "A": [0, 1, 3],
                "B": [0, 2, 4],
                "C": [0, 3, 5],
                "D": [1, 2, 4],
                "E": [1, 3, 5],
                "F": [1, 4, 6],
                "G": [2, 3, 5],
                "H": [2, 4, 6],
                "I": [2, 5, 7],
            },
            _P,
            "Turning Costs (60/120/180 deg), p.8. Rows A-F printed; G printed 2, 3 then cut "
            "off; G-I derived: the printed rows repeat in groups of three, 60 deg cost "
            "0/1/2 per group (banking: G-I spend 4 = twice the 60 deg cost), 120 deg = 60 deg "
            "+1/+2/+3 within a group, 180 deg = 120 deg +2; the printed G row (2, 3) agrees.",
            "movement, maneuver diagram",
            bounds=(0, 20),
            row_provenance={"G": _D, "H": _D, "I": _D},
        ),
        R(
            "lords.bank_cost_factor",
            2,
            _P,
            '"spending points equal to twice its 60 deg turn cost, with a minimum of 1" (p.16)',
            "banking (advanced)",
            bounds=(0, 10),
        ),
        R(
            "lords.bank_cost_minimum",
            1,
            _P,
            '"with a minimum of 1 point spent" (a bank, p.16): a bank costs '
            "max(minimum, factor x the 60 deg turn cost): 1 for MR A-C, 2 for D-F, 4 for G-I",
            "banking (advanced)",
            bounds=(1, 10),
        ),
        R(
            "lords.bank_very_low",
            "dropping",
            _A,
            "'A dragon can't bank twice in a row at Very Low altitude. This would cause the "
            "dragon to crash to the ground' (p.16). 'dropping' (default): the bank that would "
            "drop a level (the second of two in sequence) is not allowed at Very Low, as the "
            "drop is what would crash it; a third bank in a row (no drop) is; 'any': no bank "
            "that follows a bank is allowed at Very Low. The bots never crash by a bank.",
            "banking (advanced)",
            choices=("dropping", "any"),
            slot=("bank_very_low_any", 29),
            reading_of="lords.advanced.banking",
        ),
        R(
            "lords.bank_run",
            "pairs",
            _A,
            "'A dragon may bank several times in a row, but for every two banks in sequence, "
            "the dragon's altitude drops by one level' (p.16), and the summary below it: 'If "
            "the dragon immediately banks again, it will lose 1 altitude step'. Is the third "
            "bank of a run the start of a new pair? 'pairs' (default): yes, the banks of a run "
            "count in twos, so the second, fourth, ... drop a level (three banks drop one, four "
            "drop two), 'for every two' read as counting; 'each': every bank that immediately "
            "follows a bank drops a level (three banks drop two), the summary's sentence read "
            "of every bank. A bank that drops is the one 'lords.bank_very_low = dropping' "
            "forbids at Very Low.",
            "banking (advanced)",
            choices=("pairs", "each"),
            slot=("bank_each", 34),
            reading_of="lords.advanced.banking",
        ),
        R(
            "lords.bank_hex",
            "level",
            _A,
            "Whether the hex a bank moves into may also climb or dive is not said (p.16: a "
            "bank is 'move forward at a 60 deg angle'; 'Each climb or dive moves the dragon 1 "
            "hex forward', p.8). 'level' (default): a bank keeps its altitude (only the drop "
            "of two in sequence changes it), so banks do not count towards the hexes a move's "
            "climbs and dives need; 'forward': a bank's hex may climb (1 point more) or dive "
            "(1 point less) like a forward hex.",
            "banking (advanced)",
            choices=("level", "forward"),
            slot=("bank_hex_forward", 30),
            reading_of="lords.advanced.banking",
        ),
        R(
            "lords.turn_between_180",
            "full",
            _A,
            "Turning between move phases (p.16) speaks of a move that ends 'by turning 60 deg "
            "or 120 deg in a hex'; of one that ends with a 180 deg turn it says only that 'a "
            "turn does not default back to zero when its move ends'. 'full' (default): the "
            "dragon has turned its most in that hex, so its next move starts with a forward "
            "step or a bank; 'reset': after a full 180 deg the next move turns afresh, as in "
            "the basic game.",
            "turning between move phases (advanced, optional)",
            choices=("full", "reset"),
            slot=("turn_180_reset", 32),
            reading_of="lords.advanced.turn_between",
        ),
        R(
            "lords.turn_between_close_combat",
            "ends",
            _A,
            "Whether a turn carried between move phases (p.16) survives a close combat is not "
            "said: the loser 'rolls 1d6 and consults the direction template', the winner 'may "
            "then turn to face any hexside', and after a draw 'neither dragon's facing "
            "changes' (p.13). 'ends' (default): a close combat ends both dragons' turns, so "
            "their next moves start afresh; 'facing': it ends the turn of a dragon whose "
            "facing it changed only (a draw, a winner keeping its facing, a Defend that turns "
            "neither keep theirs).",
            "turning between move phases (advanced, optional)",
            choices=("ends", "facing"),
            slot=("turn_cc_facing", 33),
            reading_of="lords.advanced.turn_between",
        ),
        R(
            "lords.acceleration",
            3,
            _P,
            '"The speed can\'t be more than 3 points faster than you moved last turn" (p.7)',
            "record speed",
            bounds=(0, 30),
        ),
        R(
            "lords.speed_streak",
            {"threshold": 10, "max_turns": 3, "cooldown_per_turn": 2},
            _P,
            '"A dragon can fly at speeds of 10 or more for a maximum of three consecutive turns" '
            'and "must spend two turns at speed 9 or less for every turn it spent at a speed at or '
            'above 10" (p.7)',
            "record speed",
            bounds=(0, 100),
        ),
        R(
            "lords.acceleration_by_wings",
            {"Tiny": 2, "Small": 3, "Medium": 4, "Large": 5, "Huge": 6},
            _P,
            "Advanced Acceleration Allowance table (optional rule, p.16)",
            "record speed (with lords.advanced.acceleration)",
            bounds=(0, 30),
        ),
        R(
            "lords.max_speed_by_wings",
            {"Tiny": 11, "Small": 12, "Medium": 13, "Large": 14, "Huge": 15},
            _P,
            "Maneuverability and Speed Table: maximum speed Huge 15, Large 14, Medium 13, "
            "Small 12, Tiny 11 (p.27)",
            "sheets",
            bounds=(1, 40),
        ),
        R(
            "lords.min_speed_by_body",
            {"Very Light": 1, "Light": 2, "Average": 3, "Heavy": 4, "Very Heavy": 5},
            _P,
            "Maneuverability and Speed Table: Very Light (1) ... Heavy (4), Very Heavy (5) (p.27)",
            "sheets",
            bounds=(0, 40),
        ),
        R(
            "lords.maneuverability",
            {
                "Very Light": ["E", "D", "C", "B", "A"],
                "Light": ["F", "E", "D", "C", "B"],
                "Average": ["G", "F", "E", "D", "C"],
                "Heavy": ["H", "G", "F", "E", "D"],
                "Very Heavy": ["I", "H", "G", "F", "E"],
            },
            _P,
            "Maneuverability and Speed Table (p.27), columns here Tiny..Huge. Very Heavy row "
            "cut off; derived from the ready-made sheets (pp. 30-35) Reaper (VH/Huge) E, Ozonic "
            "(VH/Medium) G, Blowderby (VH/Small) H, Tankerous (VH/Tiny) I, and the one-step "
            "diagonal of the printed rows.",
            "sheets",
            choices=MRS,
            row_provenance={"Very Heavy": _D},
        ),
        R(
            "lords.board",
            {"width": 33, "depth": 24},
            _A,
            "Not printed. Width 33 derived from the Example of Play (pp. 36-37): two dragons "
            "placed 'directly across the map' close 19 hexes (Lectronist 9 forward; Kelvinight 7 "
            "forward plus 3 climbs, each also 1 hex forward) and then have 12 empty hexes "
            "between them, so opposite edges are 32 hexes apart. Depth 24 assumed (the rulebook "
            "gives no map size). A dragon that leaves the board is out of the game (the campaign "
            "rules, p.28, score 'leaving the board' as a way out of a fight).",
            "setup, movement",
            bounds=(2, 200),
            row_provenance={"width": _D},
        ),
        R(
            "lords.altitude_levels",
            len(ALTITUDES) - 1,
            _P,
            "Altitude counters Very High to Very Low (p.6); Ground only in advanced rules",
            "movement",
            bounds=(1, 5),
        ),
        # ---------------------------------------------------------------- sheets
        R(
            "lords.close_combat_modifier",
            {"A": 9, "B": 8, "C": 7, "D": 6, "E": 5, "F": 4, "G": 3, "H": 2, "I": 1},
            _P,
            "Close Combat Ability Table (p.13)",
            "close combat",
            bounds=(-20, 20),
        ),
        R(
            "lords.initiative_modifier",
            {"A": 2, "B": 2, "C": 2, "D": 0, "E": 0, "F": 0, "G": -2, "H": -2, "I": -2},
            _P,
            "Maneuverability Effect on Initiative Roll: A-C +2, D-F 0, G-I -2 (optional, p.15)",
            "initiative (with lords.advanced.initiative)",
            bounds=(-12, 12),
        ),
        R(
            "lords.weapon_damage",
            {0: [2, 0], 1: [2, 2], 2: [3, 0], 3: [3, 2], 4: [4, 0]},
            _P,
            "Weapon Damage Table (p.26): Cold / Blunt 2d6, Lightning / Dull 2d6+2, Flame / Sharp "
            "3d6, Ice / Jagged 3d6+2, Magma / Razor Sharp 4d6. Rows are steps 0..4 as "
            "[number of d6, plus].",
            "breath and tooth-and-claw damage",
            bounds=(0, 20),
        ),
        R(
            "lords.damage_points",
            {
                "head": 30,
                "tail": 30,
                "Very Light": 20,
                "Light": 30,
                "Average": 40,
                "Heavy": 50,
                "Very Heavy": 60,
                "Tiny": 20,
                "Small": 25,
                "Medium": 30,
                "Large": 35,
                "Huge": 40,
            },
            _P,
            "Damage Points by Body Part and Size (p.27): heads and tails 30; bodies 20..60; "
            "wings 20..40 per wing",
            "sheets",
            bounds=(1, 500),
        ),
        R(
            "lords.design_cost",
            {
                "body": [1, 2, 3, 4, 5],
                "wings": [1, 2, 3, 4, 5],
                "breath": [1, 2, 3, 4, 5],
                "claws": [1, 2, 3, 4, 5],
                "rider": [0, 1, 2, 3, 4, 5],
            },
            _D,
            "The Cost Table (p.26) is cut off after Medium wings (body 1..5 and wings "
            "Tiny..Medium 1..3 printed). One point per step is forced by the twelve ready-made "
            "totals (e.g. Slash 15 = Average 3 + Medium 3 + Flame 3 + Blunt 1 + Wizard 5; "
            "Stalwyrm 24 = 5+5+4+5+5) and by the printed bounds 'no dragon may cost less than 4 "
            "points or more than 25 points' (1+1+1+1+0 and 5+5+5+5+5); tests re-solve it.",
            "design points",
            bounds=(0, 100),
            row_provenance={"body": _P},
        ),
        R(
            "lords.design_bounds",
            {"min": 4, "max": 25},
            _P,
            '"no dragon may cost less than 4 points or more than 25 points" (p.26)',
            "design",
            bounds=(0, 1000),
        ),
        R(
            "lords.serious_damage",
            {
                "head": "breath -1 step (minimum Cold)",
                "body": "tooth and claw -1 step (minimum Blunt)",
                "wing": "maximum speed -2 per wing",
                "tail": "maneuverability -2 steps (minimum I)",
            },
            _P,
            "Serious Damage Effects Table (p.12)",
            "damage",
        ),
        R(
            "lords.serious_damage_amounts",
            {"breath_steps": 1, "claw_steps": 1, "max_speed_per_wing": 2, "mr_steps": 2},
            _P,
            "Serious Damage Effects Table (p.12)",
            "damage",
            bounds=(0, 20),
        ),
        R(
            "lords.serious_threshold",
            {"num": 1, "den": 2},
            _D,
            '"reduced to less than half of its original damage points": seriously damaged when '
            "2 * remaining < starting (p.12; 'less than half' is strict, so exactly half is not "
            "yet serious)",
            "damage",
            bounds=(1, 100),
        ),
        # ---------------------------------------------------------------- damage allocation
        R(
            "lords.damage_allocation",
            {
                2: ["H", "T", "H", "T", "H", "T"],
                3: ["H", "RW", "RW", "T", "LW", "LW"],
                4: ["H", "H", "T", "T", "T", "H"],
                5: ["B", "B", "B", "B", "B", "B"],
                6: ["B", "RW", "RW", "B", "LW", "LW"],
                7: ["B", "B", "B", "B", "B", "B"],
                8: ["B", "RW", "RW", "B", "LW", "LW"],
                9: ["B", "B", "B", "B", "B", "B"],
                10: ["H", "H", "T", "T", "T", "H"],
                11: ["H", "RW", "RW", "T", "LW", "LW"],
                12: ["H", "T", "H", "T", "H", "T"],
            },
            _P,
            "Damage Allocation Table (p.11), columns F, FR, RR, R, RL, FL. Rows 2-4 and row 5's "
            "F, FR, RR printed; the rest lost and assumed: rows 2-4 are the rare results and the "
            "rulebook's other 2d6 tables are symmetric about 7, so rows 10-12 mirror rows 4-2 "
            "and the common rolls 5-9 hit the body, with side attacks (FR, RR; RL, FL) striking "
            "the near wing on 6 and 8. The Example of Play's front-right roll of 5 hits the "
            "body (p.37).",
            "hit location",
            choices=PART_CODES,
            row_provenance={5: _A, 6: _A, 7: _A, 8: _A, 9: _A, 10: _A, 11: _A, 12: _A},
        ),
        # ---------------------------------------------------------------- close combat
        R(
            "lords.close_combat",
            {"altitude_drop": 1, "speed_loss": 2, "winner_self_damage_dice": 1},
            _P,
            '"both dragons automatically drop one altitude level", "subtract 2 from their current '
            'speed", the winner "Roll 1d6 and allocate that many points of damage" (p.13)',
            "close combat",
            bounds=(0, 10),
        ),
        R(
            "lords.self_damage_policy",
            "spread",
            _A,
            'The winner\'s 1d6 self-damage goes "anywhere ... as you like": the bot spreads it '
            "over the parts with most points left, never making a part seriously damaged or "
            "destroyed when another choice exists (p.13 leaves the choice to the player; a player "
            "keeps the dragon's abilities as long as it can).",
            "close combat",
            choices=("spread", "body", "largest"),
        ),
        R(
            "lords.tactics",
            {
                "Lunge": [0, 1, -1, 2, -2, -4],
                "Slash": [-1, 0, -2, 1, 2, -4],
                "Bite": [1, 2, 0, -2, -1, -4],
                "Tail Swing": [-2, -1, 2, 0, 1, -4],
                "Fake": [2, -2, 1, -1, 0, -4],
                "Defend": [4, 4, 4, 4, 4, 0],
            },
            _P,
            "Close Combat Tactics Result Table (optional, p.22); rows: attacker's tactic, "
            "columns defender's Lunge..Defend. Rows Lunge, Slash, Bite and Tail Swing's first two "
            "printed; the rest derived from antisymmetry and zero row sums over the five attacking "
            "tactics (the printed rows have both properties; completing the table the only way "
            "both allow).",
            "close combat (optional tactics)",
            bounds=(-20, 20),
            row_provenance={"Tail Swing": _D, "Fake": _D, "Defend": _D},
        ),
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
        # ---------------------------------------------------------------- optional tables
        R(
            "lords.critical_hits",
            {
                2: "killed",
                3: "triple body",
                4: "head shot",
                5: "leg broken",
                6: "dazed",
                7: "double body",
                8: "wing torn",
                9: "rider thrown",
                10: "head shot",
                11: "triple body",
                12: "killed",
            },
            _P,
            "Critical Hit Table (optional, p.19); row 12 is cut off in the source and assumed "
            "from the table's symmetry about 7 (3 and 11 triple damage, 4 and 10 head shot): 12 "
            "mirrors 2, 'Killed! Remove dragon from play.' Nothing printed forces the symmetry, "
            "so the row is an assumption.",
            "breath combat (optional criticals)",
            choices=(
                "killed",
                "triple body",
                "head shot",
                "leg broken",
                "dazed",
                "double body",
                "wing torn",
                "rider thrown",
            ),
            row_provenance={12: _A},
        ),
        R(
            "lords.fumbles",
            {
                2: [3, "B"],
                3: [2, "LW"],
                4: [2, "B"],
                5: [1, "B"],
                6: [1, "LW"],
                7: [1, "B"],
                8: [1, "RW"],
                9: [1, "B"],
                10: [2, "B"],
                11: [2, "RW"],
                12: [3, "B"],
            },
            _P,
            "Fumble Table (optional, p.20) as [d6 of damage, location]; rows 10-12 are cut "
            "off in the source and assumed by mirroring rows 4, 3, 2 with the wing side "
            "swapped, as rows 6 and 8 are: 10 = 2d6 Body, 11 = 2d6 Right Wing, 12 = 3d6 Body. "
            "Nothing printed forces the mirror, so the rows are assumptions.",
            "breath combat (optional fumbles)",
            row_provenance={10: _A, 11: _A, 12: _A},
        ),
        R(
            "lords.campaign_points",
            {
                "damage_point": 1,
                "critical_hit": 10,
                "fumble": -10,
                "rider_killed": -10,
                "yield_on_ground": -10,
                "leaving_board": -25,
                "last_dragon": 50,
            },
            _P,
            "Campaign Point Modifiers (p.28)",
            "campaigns",
            bounds=(-1000, 1000),
        ),
        R(
            "lords.campaign_rewards",
            {
                "points_per_reward": 100,
                "min_base_to_hit": 5,
                "min_rider_to_hit": 5,
                "max_cc_bonus": 4,
            },
            _P,
            '"For each 100 campaign points ... base to-hit number ... down to a minimum of 5 ... '
            'close combat modifier ... up to a maximum of +4" (p.29)',
            "campaigns",
            bounds=(0, 1000),
        ),
        R(
            "lords.ground",
            {
                "move_dice": 1,
                "move_plus": 3,
                "takeoff_max_speed": 7,
                "takeoff_min_over_min": 1,
                "crash_dice_per_level": 1,
                "rider_fall_kills": 3,
                "landing_cost": 1,
            },
            _P,
            "Moving on the Ground: 'roll 1d6+3. The dragon can move up to this number of hexes' "
            "(p.17); Taking Off: 'a speed of at least 1 point more than the dragon's minimum "
            "speed and no higher than 7' (p.17); a crash: 'The body part rolled will take 1d6 "
            "points of crash damage for each altitude the dragon fell' and 'If the dragon has a "
            "rider, roll 1d6. If the result is a 1, 2 or 3, the rider has been killed in the "
            "fall' (p.22); Landing 'costs 1 point' (p.17)",
            "advanced rules: the ground",
            bounds=(0, 30),
        ),
        R(
            "lords.printed_sheet_values",
            0,
            _D,
            "Tankerous's sheet prints close combat 9 but MR I gives 1; sheets are derived from "
            "their components (the Close Combat Ability Table, p.13, gives MR I a modifier of "
            "1). Set to 1 to use the printed 9: the sheet's value then counts in the exact odds "
            "and in every simulated close combat alike (the kernel keeps the sheet's difference "
            "from the table when serious tail damage lowers the maneuverability, which 'does "
            "affect your close combat modifier', p.12). The bots' estimate of a close combat "
            "before they engage still reads the table alone.",
            "sheets, odds, close combat",
            bounds=(0, 1),
        ),
    ]
    return out


RULES: dict[str, Rule] = {r.key: r for r in _rules()}

#: The switches (true/false rules of play) by their book's label: ``advanced`` the rules of
#: the advanced sections (pp. 15-19, 22) that the book does not label optional, ``optional``
#: those it does: "some rules are labeled optional. This means that all players must agree to
#: use them" (p.15).
SWITCHES: dict[str, tuple[str, ...]] = {
    label: tuple(k for k, r in RULES.items() if isinstance(r.value, bool) and r.label == label)
    for label in ("advanced", "optional")
}

#: The rules presets, as the book labels its rules: ``basic`` is the basic game (pp. 6-14);
#: ``advanced`` turns on every advanced rule the book does not label optional (the riders and
#: the Wizard's spells, moving early, the ground and its crashes, banking); ``advanced+optional``
#: adds every rule it labels optional (the initiative modifiers, the new acceleration
#: allowances, turning between move phases, critical hits, fumbles, multiple hits, tactics).
#: Other mixes are rules files (``preset = "advanced"`` and the switches to change), as the
#: presets of dragonsim 0.1 are in ``results/rules/``.
PRESETS: dict[str, dict[str, bool]] = {
    "basic": {},
    "advanced": dict.fromkeys(SWITCHES["advanced"], True),
    "advanced+optional": dict.fromkeys(SWITCHES["advanced"] + SWITCHES["optional"], True),
}

#: The kernel's options that are settings of a run, not rules: name -> index in the options
#: array (the rules' own slots are declared with each rule, :attr:`Rule.slot`)
RUN_SLOTS: dict[str, int] = {
    "turn_limit": 0,
    "plan_samples": 3,
    "range_mod": 4,
    "scenario": 6,
    "spell_policy": 25,
}

#: Every slot of the kernel's int64 options array, name -> index: the run settings and the
#: slot of every switch and reading (``dragonsim.lords.game.state.OPT_*`` are read from here)
KERNEL_SLOTS: dict[str, int] = {
    **RUN_SLOTS,
    **{r.slot[0]: r.slot[1] for r in RULES.values() if r.slot is not None},
}
#: the length of the options array
N_OPT = max(KERNEL_SLOTS.values()) + 1

#: the rule behind each rule slot: slot name -> rule key
SLOT_RULES: dict[str, str] = {r.slot[0]: k for k, r in RULES.items() if r.slot is not None}
if len(set(KERNEL_SLOTS.values())) != len(KERNEL_SLOTS) or len(SLOT_RULES) + len(RUN_SLOTS) != len(
    KERNEL_SLOTS
):
    raise ValueError("two kernel slots share a name or an index")


def slot_entry(key: str, value: int) -> int | bool:
    """A slot's kernel ``value`` as the options and manifests name it: a switch's or a
    two-way reading's as a bool, a reading with more values as its index."""
    choices = RULES[key].choices
    return bool(value) if choices is None or len(choices) == 2 else int(value)


#: what the presets are, for the docs page
PRESETS_TEXT = (
    "The presets follow the rulebook's labels: 'some rules are labeled optional. This means "
    "that all players must agree to use them' (p.15). `basic` is the basic game (pp. 6-14); "
    "`advanced` plays every rule of the advanced rules the book does not label optional (the "
    "eight-phase sequence with its riders and the Wizard's spells, moving early, the ground "
    "and its crashes, banking); `advanced+optional` adds every rule it labels optional. Any "
    'other mix is a rules file: `preset = "advanced"` and the switches to change. The presets '
    "of dragonsim 0.1 (initiative and acceleration in `advanced`, the Wizard's spells only in "
    "`advanced+optional`, the three-hit limit resolved lowest initiative first) are the rules "
    "files `results/rules/advanced-0.1.toml` and `results/rules/advanced+optional-0.1.toml`."
)


def preset_rows() -> list[dict]:
    """One row per switch, for ``python -m dragonsim rules presets`` and the docs: its key,
    the book's page and label, the presets that turn it on, and its readings (key, default,
    the other values)."""
    rows = []
    for label in ("advanced", "optional"):
        for key in SWITCHES[label]:
            r = RULES[key]
            readings = [
                {"key": q.key, "default": q.value, "others": [c for c in q.choices if c != q.value]}
                for q in RULES.values()
                if q.reading_of == key
            ]
            rows.append(
                {
                    "key": key,
                    "page": r.page,
                    "label": label,
                    "presets": [name for name, on in PRESETS.items() if on.get(key)],
                    "readings": readings,
                }
            )
    return rows


def rules_warnings(values: dict) -> list[str]:
    """What is allowed but goes against the book's advice, for the rules ``values`` (key ->
    value): fumbles without critical hits ("If you use the rules for fumbles, you should also
    use the rules for critical hits", p.20)."""
    out = []
    if values.get("lords.optional.fumbles") and not values.get("lords.optional.critical_hits"):
        out.append(
            "fumbles are on without critical hits; the rulebook advises against it: 'If you "
            "use the rules for fumbles, you should also use the rules for critical hits' "
            "(Dragon Lords, p.20)"
        )
    return out


#: The advanced rules (pp. 15-19, 22) not yet in the engine: ``--rules advanced`` does not
#: play them, and ``python -m dragonsim rules`` lists them.
TO_COME: tuple[tuple[str, str], ...] = ()

#: The optional rules (pp. 19-25) not yet in the engine: ``--rules advanced+optional`` does
#: not play them, and ``python -m dragonsim rules`` lists them.
OPTIONAL_TO_COME: tuple[tuple[str, str], ...] = ()

#: switches renamed since earlier versions: old key (0 or 1) -> new key (false or true); the
#: old name is still read, and recorded under the new one
RENAMED: dict[str, str] = {
    "lords.riders_in_play": "lords.advanced.lancer",
    # the Wizard is no optional rule (pp. 18, 24-25): its switch sits with the advanced ones
    "lords.optional.wizard": "lords.advanced.wizard",
}

#: The twelve ready-made dragons (pages 30-35): components and every printed sheet value.
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
