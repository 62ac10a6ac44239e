"""Dragon Lords exact odds (:mod:`dragonsim.lords.game.odds`) against hand computation and
brute-force enumeration: the to-hit roll and its modifiers (rulebook pp. 10-11), close combat
(p.13), the Weapon Damage Table (p.26), riders (p.18), tactics (p.22) and spells (p.25)."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest

from dragonsim.errors import UserError
from dragonsim.lords.game import odds


def _brute(n, plus=0):
    out = {}
    for faces in itertools.product(range(1, 7), repeat=n):
        out[sum(faces) + plus] = out.get(sum(faces) + plus, 0) + 1
    return {k: F(v, 6**n) for k, v in out.items()}


@pytest.mark.parametrize("n, plus", [(2, 0), (2, 2), (3, 0), (3, 2), (4, 0)])
def test_weapon_damage_matches_enumeration(n, plus):
    """Weapon Damage Table (p.26): 2d6 .. 4d6, exact against enumerating every die."""
    assert odds.dice_sum(n, plus) == _brute(n, plus)


def test_to_hit_with_automatic_miss_and_hit():
    """ "Roll 2d6. If the result is equal to or higher than your final modified target number,
    you hit ... A roll of 2 always misses, and a roll of 12 always hits, even if the target
    number is 13 or more." (p.10)"""
    assert odds.p_to_hit(8) == F(15, 36)
    assert odds.p_to_hit(7) == F(21, 36)
    assert odds.p_to_hit(13) == odds.p_to_hit(20) == F(1, 36)
    assert odds.p_to_hit(2) == odds.p_to_hit(-5) == F(35, 36)


def test_example_of_play_target_numbers():
    """Example of Play: Nick "needs to roll a (8+1=)9" (grey), Michael "just needs to roll an
    8"; with the Range Key's long-range +1 (the example omits it) they are 10 and 9."""
    kw = dict(distance=5)
    assert odds.to_hit_number("Lectronist", area="grey", range_modifier=False, **kw) == 9
    assert odds.to_hit_number("Kelvinight", area="dark", range_modifier=False, **kw) == 8
    assert odds.to_hit_number("Lectronist", area="grey", **kw) == 10
    assert odds.to_hit_number("Kelvinight", area="dark", **kw) == 9


def test_to_hit_modifiers_table():
    """To-Hit Modifiers Table (p.11): Huge wings -1 and Very Heavy -1 (Reaper), Very Light +1
    (Zippinchill, with Huge wings -1), light area +3, very short -2, altitude 2-3 steps +1."""
    assert odds.to_hit_number("Reaper", distance=3) == 6
    assert odds.to_hit_number("Zippinchill", distance=3) == 8
    assert odds.to_hit_number("Tankerous", distance=1, area="light") == 8 - 1 + 1 + 3 - 2
    assert odds.to_hit_number("Lectronist", distance=6, altitude_steps=3) == 8 + 2 + 1


def test_breath_expected_damage():
    res = odds.breath("Reaper", "Skyblazer", distance=5, area="grey")
    assert res["target_number"] == 8 - 1 + 1 + 1
    assert res["p_hit"] == F(10, 36)
    assert res["expected_damage"] == F(10, 36) * 14


def test_location_distribution_front_right():
    """Damage Allocation Table, front right column: H on 4 and 10, T on 2, RW on 3, 11, 6, 8."""
    d = odds.location("FR")
    assert d["tail"] == F(1, 36) * 2  # rolls 2 and 12
    assert d["head"] == F(3 + 3, 36)  # rolls 4 and 10
    assert sum(d.values()) == 1


def _brute_cc(ma, mb):
    w = d = l = 0
    for a1, a2, b1, b2 in itertools.product(range(1, 7), repeat=4):
        x, y = a1 + a2 + ma, b1 + b2 + mb
        w += x > y
        d += x == y
        l += x < y
    return F(w, 1296), F(d, 1296), F(l, 1296)


@pytest.mark.parametrize("diff", range(-12, 13))
def test_close_combat_by_difference_against_brute_force(diff):
    """ "The highest modified result wins the combat. If the numbers are tied, the combat is a
    draw" (p.13): only the difference of the modifiers matters."""
    assert odds.close_combat_by_difference(diff) == _brute_cc(diff, 0)


def test_close_combat_equal_modifiers_draw_is_sum_of_squares():
    """ "If the numbers are tied, the combat is a draw ... Do not reroll." (p.13)"""
    w, d, l = odds.close_combat("Reaper", "Lectronist")
    assert d == F(146, 1296) and w == l == (1 - d) / 2


def test_close_combat_lancer_and_tactics_against_brute_force():
    """Tankerous (cc 1) has a Lancer: "+2 to the dragon's close combat roll" (p.18), a rider,
    and riders act in the advanced rules only (p.15; switch lords.advanced.lancer); Zippinchill
    cc 9. Tactics: Lunge vs Defend is -4 to the attacker (p.22)."""
    from dragonsim.rules import lords_rules

    riders = lords_rules({"advanced.lancer": True})
    assert odds.close_combat("Tankerous", "Zippinchill") == _brute_cc(1, 9)
    assert odds.close_combat("Tankerous", "Zippinchill", rules=riders) == _brute_cc(3, 9)
    assert odds.close_combat(
        "Zippinchill", "Tankerous", tactics=("Lunge", "Defend"), rules=riders
    ) == _brute_cc(9 - 4, 3)
    with pytest.raises(UserError, match="unknown tactic"):
        odds.close_combat("Reaper", "Reaper", tactics=("Punch", "Lunge"))


def test_rider_attack_bands_and_wizard_self_cast():
    """Rider Abilities Table (p.18): an Archer at 2 hexes does 1d6+4, at 4 hexes 1d6+1;
    "the Wizard must simply roll a 7 or more to cast a spell on its own dragon"."""
    near = odds.rider_attack("Fiercival", "Lectronist", distance=2)
    far = odds.rider_attack("Fiercival", "Lectronist", distance=4)
    assert near["band"] == "medium" and near["target_number"] == 8
    assert far["band"] == "long" and far["target_number"] == 9
    assert odds.expected(near["damage"]) == F(15, 2)
    assert odds.spell_on_own_dragon() == F(21, 36)
    with pytest.raises(UserError, match="reaches 1..4"):
        odds.rider_attack("Fiercival", "Lectronist", distance=5)


def test_breath_at_example_of_play_positions():
    """Example of Play, turn 2: Lectronist at (9,-4) facing SE, Kelvinight at (10,0) facing W
    (a reconstruction in axial coordinates), both Very High: range 5, Kelvinight in
    Lectronist's dark area, "attacking Kelvinight through its front right hexside"; target
    numbers 9 and 10 with the range modifier the example omits."""
    from dragonsim.lords.game.hexes import SE, W

    lec, kel = (9, -4, SE, 5), (10, 0, W, 5)
    m = odds.breath_at("Lectronist", "Kelvinight", attacker_at=lec, target_at=kel)
    assert (m["distance"], m["area"], m["direction"], m["target_number"]) == (5, "dark", ["FR"], 9)
    assert m["location"] == odds.location("FR")
    n = odds.breath_at("Kelvinight", "Lectronist", attacker_at=kel, target_at=lec)
    assert (n["area"], n["target_number"]) == ("grey", 10)


def test_breath_at_refuses_what_the_rules_forbid():
    """ "If the horizontal distance to the target is less than the vertical distance, the
    dragon may not breathe on it"; only within 6 hexes and in the 180 deg arc."""
    from dragonsim.lords.game.hexes import E, W

    neck = odds.breath_at("Reaper", "Skyblazer", attacker_at=(0, 0, E, 5), target_at=(2, 0, W, 1))
    assert not neck["allowed"] and "neck" in neck["why"]
    assert odds.breath_at("Reaper", "Skyblazer", attacker_at=(0, 0, E, 3), target_at=(4, 0, W, 1))[
        "allowed"
    ]
    behind = odds.breath_at("Reaper", "Skyblazer", attacker_at=(0, 0, W, 3), target_at=(3, 0, W, 3))
    assert not behind["allowed"] and "arc" in behind["why"]
    far = odds.breath_at("Reaper", "Skyblazer", attacker_at=(0, 0, E, 3), target_at=(7, 0, W, 3))
    assert not far["allowed"] and "range" in far["why"]


def test_spell_odds():
    """ "To cast a spell, the Wizard must roll to hit just like the other riders"; Fireball's
    medium range is 2, long 4 (Spellbook, p.25)."""
    near = odds.spell("Slash", "Lectronist", "fireball", distance=2)
    far = odds.spell("Slash", "Lectronist", "Fireball", distance=3)
    assert (near["band"], near["target_number"]) == ("medium", 8)
    assert (far["band"], far["target_number"]) == ("long", 9)
    with pytest.raises(UserError, match="only a Wizard"):
        odds.spell("Reaper", "Slash", "Fireball", distance=1)
