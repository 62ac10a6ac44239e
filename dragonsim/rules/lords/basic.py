"""The Dragon Lords basic game's tables (pp. 6-14), in the registry's order: dice and to-hit,
movement, the play sheets, damage allocation and close combat. A rule of the advanced or
optional pages that changes one of these tables is declared beside it: the ground attacker's -1
(p.19), banking's costs (p.16), the readings of banking and of turning between move phases
(assumed where the text is ambiguous), the tactics' table (p.22).

Each entry is a :class:`~dragonsim.rules.core.Rule`; the registry
(:mod:`dragonsim.rules.lords`) lists this module's :data:`BASIC` first.
"""

from __future__ import annotations

from ..core import Rule
from .components import ALTITUDES, MRS, PART_CODES

R = Rule
_P, _D, _A = "printed", "derived", "assumed"


def _arc_limits(v) -> str | None:
    d, g, l = v["dark"], v["grey"], v["light"]
    if any(x % 30 for x in (d, g, l)):
        return f"arc limits must be multiples of 30 degrees, got {d}/{g}/{l}"
    if not d <= g <= l:
        return f"arc limits must not decrease (dark <= grey <= light), got {d}/{g}/{l}"
    return None


BASIC: list[Rule] = [
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
        '"If the attacker is on the ground, it gets a -1 to its attack number" (advanced, p.19)',
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
]
