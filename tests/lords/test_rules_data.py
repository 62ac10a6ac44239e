"""Rules data: provenance, re-derivation of every derived value, and checked overrides.

Each derived value is re-derived here from printed values only (a derived value is "forced
by printed values").
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from dragonsim.errors import UserError
from dragonsim.rules import PROVENANCES, lords_rules, rows_of
from dragonsim.rules.lords import BODIES, BREATHS, CLAWS, MRS, RIDERS, ROSTER, TACTICS, WINGS

R = lords_rules()

# Printed values, copied from the rulebook text for the derivations below
PRINTED_TURN_COST = {
    "A": (0, 1, 3),
    "B": (0, 2, 4),
    "C": (0, 3, 5),
    "D": (1, 2, 4),
    "E": (1, 3, 5),
    "F": (1, 4, 6),
}
PRINTED_G_PARTIAL = (2, 3)
PRINTED_MR_ROWS = {  # Maneuverability and Speed Table, columns Huge..Tiny as printed
    "Very Light": "ABCDE",
    "Light": "BCDEF",
    "Average": "CDEFG",
    "Heavy": "DEFGH",
}
PRINTED_TACTIC_ROWS = {  # Close Combat Tactics Result Table, rows printed in full
    "Lunge": (0, 1, -1, 2, -2, -4),
    "Slash": (-1, 0, -2, 1, 2, -4),
    "Bite": (1, 2, 0, -2, -1, -4),
}
PRINTED_TAIL_SWING = (-2, -1)


def test_every_rule_has_provenance_source_and_use():
    for rule in R:
        assert rule.provenance in PROVENANCES
        assert rule.source and rule.used_in, rule.key


def test_turn_costs_G_to_I_rederived_from_printed_groups():
    """Derived 2: rows repeat in groups of three; 60 deg cost is 0/1/2 per group (banking:
    "G, H or I spend 4 points" = twice the 60 deg cost); 120 = 60 + 1/2/3 within a group;
    180 = 120 + 2."""
    bank_cost_ghi = 4
    sixty = bank_cost_ghi // R.get("lords.bank_cost_factor")
    # the printed groups A-C and D-F show the within-group pattern
    for group in ("ABC", "DEF"):
        for k, m in enumerate(group):
            s, t, u = PRINTED_TURN_COST[m]
            assert t == s + 1 + k and u == t + 2
    derived = {m: (sixty, sixty + 1 + k, sixty + 1 + k + 2) for k, m in enumerate("GHI")}
    assert derived["G"][:2] == PRINTED_G_PARTIAL
    table = R.get("lords.turn_cost")
    for m in MRS:
        assert tuple(table[m]) == (PRINTED_TURN_COST.get(m) or derived[m])
    assert R.rule("lords.turn_cost").provenance_of("H") == "derived"


def test_very_heavy_maneuverability_rederived_from_ready_made_sheets():
    """Derived 1: Reaper (VH/Huge) E, Ozonic (VH/Medium) G, Blowderby (VH/Small) H,
    Tankerous (VH/Tiny) I, and the one-step diagonal of the printed rows gives Large F."""
    from_sheets = {
        ROSTER[n]["wings"]: ROSTER[n]["mr"] for n in ("Reaper", "Ozonic", "Blowderby", "Tankerous")
    }
    # each printed row is the previous row shifted one step
    rows = [PRINTED_MR_ROWS[b] for b in BODIES[:4]]
    for upper, lower in itertools.pairwise(rows):
        assert all(MRS.index(b) == MRS.index(a) + 1 for a, b in zip(upper, lower, strict=True))
    diagonal = "".join(MRS[MRS.index(c) + 1] for c in rows[-1])  # Huge..Tiny
    for wing, mr in from_sheets.items():
        assert diagonal["Huge Large Medium Small Tiny".split().index(wing)] == mr
    table = R.get("lords.maneuverability")  # stored Tiny..Huge
    assert "".join(reversed(table["Very Heavy"])) == diagonal == "EFGHI"
    for b in BODIES[:4]:
        assert "".join(reversed(table[b])) == PRINTED_MR_ROWS[b]


def test_design_costs_solved_from_the_twelve_ready_made_totals():
    """Derived 3: with body 1..5 and wings Tiny..Medium 1..3 printed (continued one point per
    step), cost linear in the step for breath, claws and riders (None = 0) is solved exactly
    by the twelve printed totals; "no dragon may cost less than 4 points" with four components
    each costing at least a point splits the intercepts, and 25 is then the dearest dragon."""
    # unknowns: breath + claws intercept sum, breath slope, claws slope, rider slope
    rows, rhs = [], []
    for spec in ROSTER.values():
        bi, wi = BODIES.index(spec["body"]), WINGS.index(spec["wings"])
        xi, ci, ri = (
            BREATHS.index(spec["breath"]),
            CLAWS.index(spec["claws"]),
            RIDERS.index(spec["rider"]),
        )
        rows.append([1, xi, ci, ri])
        rhs.append(spec["cost"] - (bi + 1) - (wi + 1))  # body and wings printed
    a = np.array(rows, float)
    sol, *_ = np.linalg.lstsq(a, np.array(rhs, float), rcond=None)
    assert np.linalg.matrix_rank(a) == a.shape[1]  # the totals pin every unknown
    assert np.allclose(a @ sol, rhs)  # exactly consistent with all twelve
    s, xb, cb, rb = np.round(sol).astype(int)
    lo_bound = R.get("lords.design_bounds")["min"]
    assert 1 + 1 + s + 0 == lo_bound  # cheapest: Very Light, Tiny, weakest weapons, no rider
    xa = ca = s // 2
    assert xa >= 1 and ca >= 1 and xa + ca == s  # each component costs at least 1
    wa, wb = 1, 1
    table = R.get("lords.design_cost")
    assert table["wings"] == [wa + wb * i for i in range(5)]
    assert table["breath"] == [xa + xb * i for i in range(5)]
    assert table["claws"] == [ca + cb * i for i in range(5)]
    assert table["rider"] == [rb * i for i in range(6)]
    assert table["body"] == [1, 2, 3, 4, 5]
    lo = sum(min(v) for v in table.values())
    hi = sum(max(v) for v in table.values())
    assert (lo, hi) == (4, 25) == tuple(R.get("lords.design_bounds").values())


def test_tactics_rows_completed_by_antisymmetry_and_zero_sums():
    """Derived 4: the printed rows are antisymmetric and sum to 0 over the five attacking
    tactics; Defend is -4 for every attacker."""
    five = TACTICS[:5]
    m = {t: [None] * 6 for t in TACTICS}
    for t, row in PRINTED_TACTIC_ROWS.items():
        m[t] = list(row)
    m["Tail Swing"][:2] = PRINTED_TAIL_SWING
    for i, t in enumerate(five):
        m[t][i] = 0  # antisymmetry: M[t][t] = -M[t][t]
    changed = True
    while changed:  # alternate the two constraints until nothing more follows
        changed = False
        for i, t in enumerate(five):
            for j, u in enumerate(five):
                if m[t][j] is None and m[u][i] is not None:
                    m[t][j] = -m[u][i]  # antisymmetry
                    changed = True
            missing = [j for j in range(5) if m[t][j] is None]
            if len(missing) == 1:  # zero row sum
                m[t][missing[0]] = -sum(v for v in m[t][:5] if v is not None)
                changed = True
    for t in five:
        m[t][5] = -4
        assert sum(m[t][:5]) == 0
    m["Defend"] = [4, 4, 4, 4, 4, 0]
    for t in five:
        assert None not in m[t]
    table = R.get("lords.tactics")
    assert {t: list(v) for t, v in table.items()} == m


def test_critical_12_mirrors_2_and_fumbles_10_12_mirror_4_3_2():
    """The rows the source cuts off, filled by the tables' symmetry: the Critical Hit
    Table is symmetric about 7; fumble rows 10, 11, 12 mirror rows 4, 3, 2 with the wing side
    swapped (as rows 6 and 8 are). Nothing printed forces the symmetry, so the filled rows
    are assumed (overridable, listed by ``rules --assumed``), not derived."""
    crit = R.get("lords.critical_hits")
    for k in (3, 4):  # the printed symmetric pairs: 3/11 triple damage, 4/10 head shot
        assert crit[k] == crit[14 - k]
    assert crit[12] == crit[2] == "killed"
    fum = R.get("lords.fumbles")
    swap = {"LW": "RW", "RW": "LW", "B": "B"}
    assert fum[8] == [fum[6][0], swap[fum[6][1]]]  # the printed pattern
    for k in (10, 11, 12):
        assert fum[k] == [fum[14 - k][0], swap[fum[14 - k][1]]]
    assert R.rule("lords.critical_hits").assumed_rows() == ["12"]
    assert R.rule("lords.fumbles").assumed_rows() == ["10", "11", "12"]


def test_board_width_derived_from_the_example_of_play():
    """Derived 10: "Michael then places Lectronist directly across the map"; Lectronist flies
    9 forward, Kelvinight 7 forward and 3 climbs (each 1 hex forward), "there are still 12
    empty hexes between the two dragons"."""
    lectronist, kelvinight, empty = 9, 7 + 3, 12
    across = lectronist + kelvinight + empty + 1  # hexes between the two edge hexes' centres
    assert across == 32
    assert R.get("lords.board")["width"] == across + 1


def test_damage_allocation_keeps_printed_rows_and_example_of_play():
    """Rows 2-4 and row 5's F, FR, RR are printed; "He gets a 5. Kelvinight has been hit in
    the body" (front right)."""
    t = R.get("lords.damage_allocation")
    assert t[2] == ["H", "T", "H", "T", "H", "T"]
    assert t[3] == ["H", "RW", "RW", "T", "LW", "LW"]
    assert t[4] == ["H", "H", "T", "T", "T", "H"]
    assert t[5][:3] == ["B", "B", "B"]
    assert t[5][1] == "B"


def test_assumed_values_all_listed():
    keys = {r["key"] for r in rows_of(R) if r["provenance"] == "assumed"}
    expected = {
        "lords.altitude_mod",
        "lords.self_damage_policy",
        "lords.board.depth",
        "lords.arc_degrees.dark",
        "lords.rider_to_hit.long",
        "lords.spells.Vigor",
        "lords.damage_allocation.6",
        "lords.damage_allocation.12",
    }
    assert expected <= keys
    assert "lords.damage_allocation.2" not in keys
    assert "lords.board.width" not in keys  # derived


@pytest.mark.parametrize(
    "overrides, match",
    [
        ({"nope": 1}, "unknown rule 'lords.nope'"),
        ({"altitud_mod": [0, 0, 1, 1, 2]}, "did you mean 'lords.altitude_mod'"),
        ({"altitude_mod": [0, 1]}, "expected 5 entries"),
        ({"altitude_mod": "big"}, "expected a list of 5 ints"),
        ({"base_to_hit": 40}, r"out of range; allowed 2\.\.12"),
        ({"base_to_hit": "8"}, "expected a whole number"),
        ({"turn_cost": {"A": [0, 1, 3]}}, "missing row"),
        ({"turn_cost.J": [1, 2, 3]}, "unknown row 'J'"),
        ({"damage_allocation.6": ["B", "B", "B", "B", "B", "X"]}, "'X' is not allowed"),
        ({"self_damage_policy": "sprad"}, "did you mean 'spread'"),
    ],
)
def test_bad_overrides_are_refused_naming_key_and_allowed(overrides, match):
    with pytest.raises(UserError, match=match):
        lords_rules(overrides)


def test_overrides_change_values_and_hash():
    r2 = lords_rules({"damage_allocation.7": ["H", "H", "H", "H", "H", "H"]})
    assert r2.get("lords.damage_allocation")[7] == ["H"] * 6
    assert r2.get("lords.damage_allocation")[6] == R.get("lords.damage_allocation")[6]
    assert r2.hash != R.hash
    assert lords_rules().hash == R.hash  # stable


def test_toml_file_overrides(tmp_path):
    f = tmp_path / "house.toml"
    f.write_text('[lords]\naltitude_mod = [0, 1, 1, 2, 2]\n"turn_cost.E" = [1, 2, 4]\n')
    r = lords_rules(file=f)
    assert r.get("lords.altitude_mod") == [0, 1, 1, 2, 2]
    assert r.get("lords.turn_cost")["E"] == [1, 2, 4]
    bad = tmp_path / "bad.toml"
    bad.write_text("[lords\n")
    with pytest.raises(UserError, match="not valid TOML"):
        lords_rules(file=bad)
    with pytest.raises(UserError, match="not found"):
        lords_rules(file=tmp_path / "missing.toml")


def test_kernel_tables_follow_overrides():
    from dragonsim.lords.game.tables import S_BASE_TO_HIT, kernel_tables

    t = kernel_tables(lords_rules({"base_to_hit": 7, "damage_allocation.7": ["H"] * 6}))
    assert t.scalars[S_BASE_TO_HIT] == 7
    assert list(t.alloc[7]) == [0] * 6
    assert t.turn_cost.shape == (9, 4) and t.turn_cost.dtype == np.int64
    assert list(t.range_mod[1:7]) == [-2, -1, 0, 0, 1, 2]


def test_get_one_row_of_a_table():
    r = lords_rules({"damage_allocation.7": ["H"] * 6})
    assert r.get("lords.damage_allocation.7") == ["H"] * 6
    assert r.get("lords.damage_allocation.6") == R.get("lords.damage_allocation")[6]
    with pytest.raises(UserError, match="unknown row"):
        r.get("lords.damage_allocation.13")
