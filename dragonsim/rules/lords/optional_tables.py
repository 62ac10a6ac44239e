"""The Dragon Lords tables read by the optional and advanced rules' switches: the critical
hits and fumbles tables (pp. 19-20), the campaign's points and rewards (pp. 28-29), the ground
(p.17), and whether a sheet's printed values are read as printed (derived).

Each entry is a :class:`~dragonsim.rules.core.Rule`; the registry
(:mod:`dragonsim.rules.lords`) lists this module's :data:`OPTIONAL_TABLES` last.
"""

from __future__ import annotations

from ..core import Rule

R = Rule
_P, _D, _A = "printed", "derived", "assumed"

OPTIONAL_TABLES: list[Rule] = [
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
