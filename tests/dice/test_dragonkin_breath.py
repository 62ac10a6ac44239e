"""Dragonkin breath in melee (seed, 'Dragonkin Rules', Breath Weapons), one test per sentence.

Custom dice make each effect deterministic; where dice decide, the kernel's counts are
checked against the exact probability with a binomial test at alpha = 1e-6.
"""

import json

import pytest

from dragonsim.cli import main
from dragonsim.dice import data as D
from dragonsim.dice import kernel as K
from dragonsim.dice import melee
from dragonsim.stats import binomial_consistent

N = 2000


def _cat():
    c = D.Catalog()
    add = c.units.__setitem__
    add("blank", D.make_unit("blank", race="t", health=1, faces=["Maneuver 1"] * 6))
    add("idol", D.make_unit("idol", race="t", health=1, faces=["ID"] * 6))
    add("shield", D.make_unit("shield", race="t", health=1, faces=["Save 1"] * 6))
    add("shield2", D.make_unit("shield2", race="t", health=1, faces=["Save 2"] * 6))
    add("sword", D.make_unit("sword", race="t", health=1, faces=["Melee 1"] * 6))
    add("sword2", D.make_unit("sword2", race="t", health=1, faces=["Melee 2"] * 6))
    for col in D.COLOURS:
        add(
            f"{col}-breather",
            D.make_unit(
                f"{col}-breather", race="k", health=1, faces=["Breath"] * 6, kin_colour=col
            ),
        )
        add(
            f"{col}-sometimes",
            D.make_unit(
                f"{col}-sometimes",
                race="k",
                health=1,
                faces=["Breath"] + ["Maneuver 1"] * 5,
                kin_colour=col,
            ),
        )
    add(
        "kin-sword",
        D.make_unit("kin-sword", race="k", health=1, faces=["Melee 1"] * 6, kin_colour="red"),
    )
    add(
        "kin-belly",
        D.make_unit("kin-belly", race="k", health=2, faces=["Belly"] * 6, kin_colour="red"),
    )
    add(
        "kin-1",
        D.make_unit("kin-1", race="k", health=1, faces=["Maneuver 1"] * 6, kin_colour="red"),
    )
    add(
        "kin-armor",
        D.make_unit("kin-armor", race="k", health=2, faces=["Maneuver 1"] * 6, kin_colour="red"),
    )
    return c


CAT = _cat()


def run(a, b, n=N, **kw):
    return melee(a, b, n=n, catalog=CAT, progress=False, **kw)


def b_lost_always(r, h):
    return int(r.defender_lost_hist[h]) == r.n


def test_red_kin_breath_one_unit_killed_and_buried():
    """'Red -- Flame: One unit from the target army is killed and buried.'"""
    r = run({"blank": 1, "red-breather": 2}, {"shield": 5}, counter_attack=False)
    assert b_lost_always(r, 2) and int(r.counters[K.M_B_BURIED]) == 2 * r.n


def test_black_kin_breath_must_roll_id_to_avoid_death():
    """'Black -- Disease: One nonmonster unit in the target army must roll its ID icon to avoid
    being killed and buried.'"""
    assert b_lost_always(
        run({"blank": 1, "black-breather": 1}, {"idol": 3}, counter_attack=False), 0
    )
    assert b_lost_always(
        run({"blank": 1, "black-breather": 1}, {"blank": 3}, counter_attack=False), 1
    )
    n = 60_000
    r = run({"blank": 1, "black-sometimes": 1}, {"goblin-thug": 3}, n=n, counter_attack=False)
    # breath on 1 face of 6, then the thug dies unless it rolls its 1 ID face of 6
    assert binomial_consistent(int(r.defender_lost_hist[1]), n, (1 / 6) * (5 / 6))


def test_blue_kin_breath_one_unit_only_saves():
    """'Blue -- Paralysis: One unit in the target army can roll only for saves until the end
    of its next tur.' The paralysed sword cannot counter-attack."""
    r = run({"blank": 3, "blue-breather": 1}, {"sword2": 1})
    assert int(r.counters[K.M_A_LOST]) == 0
    # the same attacker without the breath (armor 1 as well): the Melee 2 strikes back
    r = run({"blank": 3, "kin-1": 1}, {"sword2": 1})
    assert int(r.counters[K.M_A_LOST]) == r.n


def test_gold_kin_breath_one_unit_killed_unless_it_saves():
    """'Gold -- Turn to Stone: One unit from the target army is kiled unless it can roll a
    save individually.'"""
    assert b_lost_always(
        run({"blank": 1, "gold-breather": 1}, {"blank": 2}, counter_attack=False), 1
    )
    assert b_lost_always(
        run({"blank": 1, "gold-breather": 1}, {"shield": 2}, counter_attack=False), 0
    )


def test_green_kin_breath_one_unit_halves_its_rolls():
    """'Green -- Frost: One unit in the target army halves its roll results (round down)'."""
    # 6 melee against three Save-2 shields: 6 saves, nothing lost; frost on one: 5 saves
    r = run({"sword": 6, "kin-1": 1}, {"shield2": 3}, counter_attack=False)
    assert b_lost_always(r, 0)
    r = run({"sword": 6, "green-breather": 1}, {"shield2": 3}, counter_attack=False)
    assert b_lost_always(r, 1)


def test_the_owner_chooses_the_targeted_unit():
    """'The army's owner chooses which die is targeted.' / '... which unit dies.'"""
    r = run(
        {"blank": 1, "red-breather": 1},
        {"blank": 1, "kin-armor": 1},
        policy="kin-first",
        counter_attack=False,
    )
    assert b_lost_always(r, 2)  # the kin (2 health) burns; the blank stays
    r = run(
        {"blank": 1, "red-breather": 1},
        {"blank": 2, "kin-armor": 1},
        policy="cheapest",
        counter_attack=False,
    )
    assert b_lost_always(r, 1)


def test_kin_melee_counts_as_melee():
    """'Maneuver and Melee: Same as for normal dice, they count as the appropriate number of
    maneuver or melee results.'"""
    assert b_lost_always(run({"blank": 1, "kin-sword": 3}, {"blank": 5}, counter_attack=False), 3)


def test_kin_armor_and_belly_in_melee():
    """Armored skin: 'automatic saves equal to their health'; 'Whenever a belly icon is rolled
    on a dragonkin unit, it loses its automatic saves ... during this action.'"""
    r = run({"sword": 2}, {"blank": 1, "kin-armor": 1}, counter_attack=False)
    assert b_lost_always(r, 0)
    r = run({"sword": 2}, {"blank": 3, "kin-belly": 1}, counter_attack=False)
    assert b_lost_always(r, 2)


def test_breath_needs_a_melee_attack_from_dragonkin():
    """Only dragonkin breathe: a normal unit's breath face (user data) does nothing."""
    CAT.units["fake"] = D.make_unit("fake", race="t", health=1, faces=["Breath"] * 6)
    assert b_lost_always(run({"fake": 2}, {"blank": 3}, counter_attack=False), 0)


def test_melee_command_json(capsys):
    rc = main(
        [
            "dice",
            "melee",
            "--attacker",
            "goblin-thug:4,red-dragonkin-common:2",
            "--defender",
            "dwarf-guard",
            "-n",
            "3000",
            "--json",
        ]
    )
    d = json.loads(capsys.readouterr().out)
    assert rc == 0 and d["n"] == 3000 and "ci_defender_destroyed" in d
    assert d["breaths_by_attacker_per_game"] > 0


@pytest.mark.parametrize("colour", D.COLOURS)
def test_every_colour_breathes(colour):
    r = run({"blank": 1, f"{colour}-breather": 1}, {"blank": 2}, counter_attack=False)
    assert int(r.counters[K.M_BREATHS_A]) == r.n
