"""Play sheets computed from components, against every printed value (rulebook pp.30-35)."""

from __future__ import annotations

import pytest

from dragonsim.errors import UserError
from dragonsim.lords.game.sheets import design, legion, parse_design, roster, sheet
from dragonsim.rules import lords_rules

# name: (DP, MR, CC, min, max, breath damage, T&C damage, rider) exactly as printed
PRINTED = {
    "Lectronist": (12, "E", 5, 4, 14, "2d6+2", "2d6+2", "None"),
    "Kelvinight": (12, "D", 6, 2, 13, "3d6+2", "3d6", "None"),
    "Zippinchill": (10, "A", 9, 1, 15, "2d6", "3d6", "None"),
    "Thilindis": (16, "E", 5, 4, 14, "3d6+2", "3d6+2", "None"),
    "Reaper": (20, "E", 5, 5, 15, "4d6", "4d6", "None"),
    "Skyblazer": (18, "C", 7, 3, 15, "4d6", "4d6", "None"),
    "Slash": (15, "E", 5, 3, 13, "3d6", "2d6", "Wizard"),
    "Blowderby": (15, "H", 2, 5, 12, "4d6", "2d6", "Javelin Thrower"),
    "Tankerous": (12, "I", 9, 5, 11, "2d6", "3d6+2", "Lancer"),
    "Fiercival": (16, "G", 3, 4, 12, "4d6", "2d6+2", "Archer"),
    "Ozonic": (18, "G", 3, 5, 13, "3d6", "3d6", "Crossbow Shooter"),
    "Stalwyrm": (24, "E", 5, 5, 15, "3d6+2", "4d6", "Wizard"),
}


@pytest.mark.parametrize("name", list(PRINTED))
def test_ready_made_sheet_matches_every_printed_value(name):
    """Pages 30-35: each computed sheet equals the printed one, except Tankerous's printed
    close-combat 9, which contradicts MR I -> 1 on the Close Combat Ability Table (p.13)."""
    dp, mr, cc, lo, hi, br, tc, rider = PRINTED[name]
    s = sheet(name)
    assert (s.cost, s.mr, s.min_speed, s.max_speed, s.breath_damage, s.claw_damage, s.rider) == (
        dp,
        mr,
        lo,
        hi,
        br,
        tc,
        rider,
    )
    assert s.cc == (1 if name == "Tankerous" else cc)


def test_tankerous_printed_close_combat_on_request():
    """Tankerous: MR I gives close combat 1; printed_sheet_values keeps the printed 9."""
    assert sheet("Tankerous", rules=lords_rules({"printed_sheet_values": 1})).cc == 9


def test_stalwyrm_very_large_wings_read_as_huge():
    """Derived 8: "Very Large" wings; MR E with a Very Heavy body and maximum speed 15
    force Huge."""
    s = sheet("Stalwyrm")
    assert s.wings == "Huge" and s.mr == "E" and s.max_speed == 15
    assert (
        design(
            body="Very Heavy", wings="Very Large", breath="Ice", claws="Razor Sharp", rider="Wizard"
        ).cost
        == 24
    )


def test_damage_points_and_halving():
    """Damage Points table (p.27) and "split them evenly across the lines. Leave odd points
    above the line"."""
    s = sheet("Blowderby")  # Very Heavy body 60, Small wings 25 each
    assert s.damage_points == {
        "head": 30,
        "body": 60,
        "tail": 30,
        "left_wing": 25,
        "right_wing": 25,
    }
    assert s.damage_halves["left_wing"] == (13, 12)
    assert s.damage_halves["body"] == (30, 30)


def test_maneuver_diagram_from_turning_costs():
    """ "a dragon with maneuver diagram E spends 1 point to turn 60 deg, 3 points to turn 120 deg
    and 5 points to turn 180 deg" (p.8)."""
    assert sheet("Reaper").maneuver_diagram == {"60": 1, "120": 3, "180": 5}


def test_names_case_insensitive_with_did_you_mean():
    assert sheet("  rEaPeR ").name == "Reaper"
    with pytest.raises(UserError, match="did you mean 'Reaper'"):
        sheet("Reapr")
    with pytest.raises(UserError, match="did you mean 'Large'.*allowed: Tiny, Small"):
        sheet("body=Heavy,wings=Larg,breath=Ice,claws=Sharp")


def test_design_errors_name_the_option_and_allowed_values():
    with pytest.raises(UserError, match="unknown breath weapon 'Acid'.*allowed: Cold"):
        design(body="Heavy", wings="Large", breath="Acid", claws="Sharp")
    with pytest.raises(UserError, match="unknown design key 'tail'"):
        parse_design("body=Heavy,wings=Large,breath=Ice,claws=Sharp,tail=Long")
    with pytest.raises(UserError, match="missing claws"):
        parse_design("body=Heavy,wings=Large,breath=Ice")
    with pytest.raises(UserError, match="over the budget of 15"):
        design(body="Heavy", wings="Large", breath="Ice", claws="Sharp", rider="Archer", budget=15)


def test_cost_bounds_4_to_25_are_enforced():
    """ "no dragon may cost less than 4 points or more than 25 points" (p.26): the bounds are
    reachable, and a study that cheapens a component can push a design below them."""
    assert design(body="Very Light", wings="Tiny", breath="Cold", claws="Blunt").cost == 4
    assert (
        design(
            body="Very Heavy", wings="Huge", breath="Magma", claws="Razor Sharp", rider="Wizard"
        ).cost
        == 25
    )
    cheap = lords_rules({"design_cost.body": [0, 2, 3, 4, 5]})
    with pytest.raises(UserError, match=r"costs 3 design points; a dragon must cost 4\.\.25"):
        design(body="Very Light", wings="Tiny", breath="Cold", claws="Blunt", rules=cheap)


def test_legion_method_budget():
    """The Legion Method (p.26): "With 50 points, a player may ... create two 25-point
    dragons or five 10-point dragons"."""
    max25 = "body=Very Heavy,wings=Huge,breath=Magma,claws=Razor Sharp,rider=Wizard"
    assert sum(s.cost for s in legion(50, [max25, max25])) == 50
    assert len(legion(50, ["Zippinchill"] * 5)) == 5
    with pytest.raises(UserError, match="legion costs 60"):
        legion(50, ["Zippinchill"] * 6)


def test_sheet_follows_rule_overrides():
    r = lords_rules({"damage_points.head": 40, "maneuverability.Heavy": ["H", "G", "F", "D", "D"]})
    s = sheet("Lectronist", rules=r)
    assert s.damage_points["head"] == 40 and s.mr == "D" and s.cc == 6


def test_roster_has_twelve():
    assert [s.name for s in roster()] == list(PRINTED)
